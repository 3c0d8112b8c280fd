/*
 * A C producer for the reader tests: struct<id: int64, name: utf8> whose parent and children all have
 * offsets (parent 1, id 2, name 3), so that element i of member k lives at slot 1 + offset_k + i. Static
 * buffers; the release callbacks count how often they ran.
 */
#include <stdint.h>
#include <stddef.h>
#include "arrow_c_abi.h"

static int64_t releases;

static const int64_t ids[] = {-1, -1, 10, 11, 12, 13, 14, 15};
static const uint8_t id_validity[] = {0xEF, 0xFF};  /* slot 4 (element 1) is null */
static const int32_t name_offsets[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const char name_data[] = "abcdefghi";
static const uint8_t struct_validity[] = {0xF7};    /* slot 3 (element 2) is null */

static const void* id_buffers[2];
static const void* name_buffers[3];
static const void* struct_buffers[1];
static struct ArrowArray id_array, name_array;
static struct ArrowArray* children[2];
static struct ArrowSchema id_schema, name_schema;
static struct ArrowSchema* schema_children[2];

static void release_child(struct ArrowArray* array) {
  array->release = NULL;
}

static void release_struct(struct ArrowArray* array) {
  for (int64_t k = 0; k < array->n_children; k++) {
    if (array->children[k]->release != NULL) {
      array->children[k]->release(array->children[k]);
    }
  }
  array->release = NULL;
  releases++;
}

static void release_schema(struct ArrowSchema* schema) {
  schema->release = NULL;
}

static void leaf(struct ArrowArray* array, int64_t length, int64_t offset, int64_t null_count, int64_t n_buffers,
                 const void** buffers) {
  array->length = length;
  array->null_count = null_count;
  array->offset = offset;
  array->n_buffers = n_buffers;
  array->n_children = 0;
  array->buffers = buffers;
  array->children = NULL;
  array->dictionary = NULL;
  array->release = release_child;
  array->private_data = NULL;
}

static void field(struct ArrowSchema* schema, const char* format, const char* name, int64_t n_children,
                  struct ArrowSchema** children_of) {
  schema->format = format;
  schema->name = name;
  schema->metadata = NULL;
  schema->flags = ARROW_FLAG_NULLABLE;
  schema->n_children = n_children;
  schema->children = children_of;
  schema->dictionary = NULL;
  schema->release = release_schema;
  schema->private_data = NULL;
}

/* Fills out with the struct (4 elements) and schema with its type. */
void sliced_struct_make(struct ArrowDeviceArray* out, struct ArrowSchema* schema) {
  id_buffers[0] = id_validity;
  id_buffers[1] = ids;
  name_buffers[0] = NULL;
  name_buffers[1] = name_offsets;
  name_buffers[2] = name_data;
  struct_buffers[0] = struct_validity;
  leaf(&id_array, 5, 2, -1, 2, id_buffers);
  leaf(&name_array, 5, 3, 0, 3, name_buffers);
  children[0] = &id_array;
  children[1] = &name_array;
  leaf(&out->array, 4, 1, 1, 1, struct_buffers);
  out->array.n_children = 2;
  out->array.children = children;
  out->array.release = release_struct;
  out->device_id = -1;
  out->device_type = ARROW_DEVICE_CPU;
  out->sync_event = NULL;
  for (size_t i = 0; i < sizeof(out->reserved) / sizeof(out->reserved[0]); i++) {
    out->reserved[i] = 0;
  }
  field(&id_schema, "l", "id", 0, NULL);
  field(&name_schema, "u", "name", 0, NULL);
  schema_children[0] = &id_schema;
  schema_children[1] = &name_schema;
  field(schema, "+s", "row", 2, schema_children);
}

/* How often the struct's release callback ran. */
int64_t sliced_struct_releases(void) {
  return releases;
}
