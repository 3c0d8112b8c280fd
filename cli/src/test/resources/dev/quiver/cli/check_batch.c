/* The conforming batch of check_batch.h, and its release callbacks. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check_batch.h"

static atomic_long array_releases;
static atomic_long schema_releases;
static atomic_long top_array_releases;
static atomic_long top_schema_releases;

long batch_array_releases(void) { return atomic_load(&array_releases); }
long batch_schema_releases(void) { return atomic_load(&schema_releases); }
long batch_top_array_releases(void) { return atomic_load(&top_array_releases); }
long batch_top_schema_releases(void) { return atomic_load(&top_schema_releases); }

static void* copy(const void* bytes, size_t size) {
  void* out = malloc(size == 0 ? 1 : size);
  memcpy(out, bytes, size);
  return out;
}

/* Releases one child or dictionary this node made, unless it was moved out, and frees its struct. */
static void release_child(struct ArrowArray* child) {
  if (child->release != NULL) {
    child->release(child);
  }
  free(child);
}

/* Releases the children and dictionary this node made, frees what it owns, marks it released. */
void batch_release_array(struct ArrowArray* array) {
  struct array_node* node = (struct array_node*)array->private_data;
  for (int64_t i = 0; i < node->n_children; i++) {
    release_child(node->children[i]);
  }
  if (node->dictionary != NULL) {
    release_child(node->dictionary);
  }
  for (int i = 0; i < 3; i++) {
    free(node->owned[i]);
  }
  if (node->top) {
    atomic_fetch_add(&top_array_releases, 1);
  }
  free(node);
  atomic_fetch_add(&array_releases, 1);
  array->release = NULL;
}

static void fill(struct ArrowArray* out, int64_t length, int64_t null_count, int n_buffers, int top) {
  struct array_node* node = (struct array_node*)calloc(1, sizeof *node);
  node->top = top;
  memset(out, 0, sizeof *out);
  out->length = length;
  out->null_count = null_count;
  out->n_buffers = n_buffers;
  out->buffers = node->buffers;
  out->children = node->children;
  out->release = batch_release_array;
  out->private_data = node;
}

void batch_array(struct ArrowArray* out) {
  static const uint8_t id_validity = 0x05; /* rows 0 and 2 valid */
  static const int32_t ids[3] = {1, 0, 3};
  static const int32_t offsets[4] = {0, 1, 3, 3};
  static const char text[3] = {'a', 'b', 'c'};

  struct ArrowArray* id = (struct ArrowArray*)malloc(sizeof *id);
  fill(id, 3, 1, 2, 0);
  struct array_node* id_node = (struct array_node*)id->private_data;
  id_node->owned[0] = copy(&id_validity, 1);
  id_node->owned[1] = copy(ids, sizeof ids);
  id_node->buffers[0] = id_node->owned[0];
  id_node->buffers[1] = id_node->owned[1];

  struct ArrowArray* name = (struct ArrowArray*)malloc(sizeof *name);
  fill(name, 3, 0, 3, 0);
  struct array_node* name_node = (struct array_node*)name->private_data;
  name_node->owned[1] = copy(offsets, sizeof offsets);
  name_node->owned[2] = copy(text, sizeof text);
  name_node->buffers[0] = NULL;
  name_node->buffers[1] = name_node->owned[1];
  name_node->buffers[2] = name_node->owned[2];

  static const int8_t tag_indices[3] = {0, 1, 0};
  static const int32_t tag_offsets[3] = {0, 1, 3};
  static const char tag_text[3] = {'x', 'y', 'z'};

  struct ArrowArray* tag_values = (struct ArrowArray*)malloc(sizeof *tag_values);
  fill(tag_values, 2, 0, 3, 0);
  struct array_node* values_node = (struct array_node*)tag_values->private_data;
  values_node->owned[1] = copy(tag_offsets, sizeof tag_offsets);
  values_node->owned[2] = copy(tag_text, sizeof tag_text);
  values_node->buffers[0] = NULL;
  values_node->buffers[1] = values_node->owned[1];
  values_node->buffers[2] = values_node->owned[2];

  struct ArrowArray* tag = (struct ArrowArray*)malloc(sizeof *tag);
  fill(tag, 3, 0, 2, 0);
  struct array_node* tag_node = (struct array_node*)tag->private_data;
  tag_node->owned[1] = copy(tag_indices, sizeof tag_indices);
  tag_node->buffers[0] = NULL;
  tag_node->buffers[1] = tag_node->owned[1];
  tag_node->dictionary = tag_values;
  tag->dictionary = tag_values;

  fill(out, 3, 0, 1, 1);
  struct array_node* node = (struct array_node*)out->private_data;
  node->buffers[0] = NULL;
  node->n_children = 3;
  node->children[0] = id;
  node->children[1] = name;
  node->children[2] = tag;
  out->n_children = 3;
}

static void release_child_schema(struct ArrowSchema* child) {
  if (child->release != NULL) {
    child->release(child);
  }
  free(child);
}

void batch_release_schema(struct ArrowSchema* schema) {
  struct schema_node* node = (struct schema_node*)schema->private_data;
  for (int64_t i = 0; i < node->n_children; i++) {
    release_child_schema(node->children[i]);
  }
  if (node->dictionary != NULL) {
    release_child_schema(node->dictionary);
  }
  if (node->top) {
    atomic_fetch_add(&top_schema_releases, 1);
  }
  free(node);
  atomic_fetch_add(&schema_releases, 1);
  schema->release = NULL;
}

static void fill_schema(struct ArrowSchema* out, const char* format, const char* name, int top) {
  struct schema_node* node = (struct schema_node*)calloc(1, sizeof *node);
  node->top = top;
  memset(out, 0, sizeof *out);
  out->format = format;
  out->name = name;
  out->flags = ARROW_FLAG_NULLABLE;
  out->children = node->children;
  out->release = batch_release_schema;
  out->private_data = node;
}

void batch_schema(struct ArrowSchema* out) {
  struct ArrowSchema* id = (struct ArrowSchema*)malloc(sizeof *id);
  fill_schema(id, "i", "id", 0);
  struct ArrowSchema* name = (struct ArrowSchema*)malloc(sizeof *name);
  fill_schema(name, "u", "name", 0);
  struct ArrowSchema* tag_values = (struct ArrowSchema*)malloc(sizeof *tag_values);
  fill_schema(tag_values, "u", "", 0);
  struct ArrowSchema* tag = (struct ArrowSchema*)malloc(sizeof *tag);
  fill_schema(tag, "c", "tag", 0);
  ((struct schema_node*)tag->private_data)->dictionary = tag_values;
  tag->dictionary = tag_values;
  fill_schema(out, "+s", "batch", 1);
  out->flags = 0;
  struct schema_node* node = (struct schema_node*)out->private_data;
  node->n_children = 3;
  node->children[0] = id;
  node->children[1] = name;
  node->children[2] = tag;
  out->n_children = 3;
}

void batch_device_array(struct ArrowDeviceArray* out) {
  memset(out, 0, sizeof *out);
  batch_array(&out->array);
  out->device_id = -1;
  out->device_type = ARROW_DEVICE_CPU;
  out->sync_event = NULL;
}
