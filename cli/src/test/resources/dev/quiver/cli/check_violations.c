/* Producers that each break one rule of the specs on purpose; the name says which. */
#include <stdlib.h>
#include <string.h>
#include "check_batch.h"

static struct array_node* node_of(struct ArrowArray* array) {
  return (struct array_node*)array->private_data;
}

/* reserved[1] left non-zero (the spec: zeroed after allocation). */
int reserved_not_zeroed(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->reserved[1] = 0x2a;
  return 0;
}

/* A CPU array with device_id 0 (the convention is -1). */
int cpu_device_id_zero(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->device_id = 0;
  return 0;
}

/* device_type 5, which is unassigned. */
int device_type_unassigned(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->device_type = 5;
  out->device_id = 0;
  return 0;
}

/* device_type 99, not an ARROW_DEVICE_* code. */
int device_type_unknown(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->device_type = 99;
  out->device_id = 0;
  return 0;
}

/* A CPU array with a sync_event (the CPU has no events). */
int cpu_with_sync_event(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  static void* event = (void*)0x5eed0000;
  batch_device_array(out);
  batch_schema(out_schema);
  out->sync_event = &event;
  return 0;
}

/* The classic bug: the event handle itself in sync_event instead of a pointer to it. */
int event_handle_stored(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->device_type = ARROW_DEVICE_OPENCL;
  out->device_id = 0;
  out->sync_event = (void*)0x2a; /* an opaque cl_event value, stored as is */
  return 0;
}

/* sync_event points to a NULL event handle. */
int event_null_handle(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  static void* event = NULL;
  batch_device_array(out);
  batch_schema(out_schema);
  out->device_type = ARROW_DEVICE_CUDA;
  out->device_id = 0;
  out->sync_event = &event;
  return 0;
}

/* The int32 child declares 3 buffers (int32 has 2). */
int wrong_buffer_count(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.children[0]->n_buffers = 3;
  return 0;
}

/* The int32 child has a null but no validity bitmap. */
int null_validity_with_nulls(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  node_of(out->array.children[0])->buffers[0] = NULL;
  return 0;
}

/* The struct array says it has 1 child; its schema says 2. */
int wrong_child_count(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.n_children = 1;
  return 0;
}

/* The utf8 child is shorter than its struct parent. */
int child_too_short(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.children[1]->length = 2;
  return 0;
}

/* A negative length. */
int negative_length(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.length = -1;
  return 0;
}

/* Offsets that decrease: the structs are fine, the data is not. */
int decreasing_offsets(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  int32_t* offsets = (int32_t*)node_of(out->array.children[1])->owned[1];
  offsets[2] = 0;
  return 0;
}

/* The top-level release frees everything but does not mark the struct released. */
static void release_without_marking(struct ArrowArray* array) {
  batch_release_array(array);
  array->release = release_without_marking;
}

int release_not_marked(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.release = release_without_marking;
  return 0;
}

/* The top-level release frees its children without calling their release callbacks. */
static void release_skipping_children(struct ArrowArray* array) {
  struct array_node* node = node_of(array);
  for (int64_t i = 0; i < node->n_children; i++) {
    struct ArrowArray* child = node->children[i];
    struct array_node* child_node = node_of(child);
    for (int k = 0; k < 3; k++) {
      free(child_node->owned[k]);
    }
    free(child_node);
    free(child);
  }
  node->n_children = 0;
  batch_release_array(array);
}

int child_not_released(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.release = release_skipping_children;
  return 0;
}

/* The dictionary-encoded child's release frees its dictionary without calling the dictionary's release. */
static void release_skipping_dictionary(struct ArrowArray* array) {
  struct array_node* node = node_of(array);
  struct ArrowArray* dictionary = node->dictionary;
  struct array_node* dictionary_node = node_of(dictionary);
  for (int k = 0; k < 3; k++) {
    free(dictionary_node->owned[k]);
  }
  free(dictionary_node);
  free(dictionary);
  node->dictionary = NULL;
  batch_release_array(array);
}

int dictionary_not_released(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.children[2]->release = release_skipping_dictionary;
  return 0;
}

/* An int32 column whose array has a dictionary its schema does not have. */
int dictionary_unexpected(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  struct ArrowArray* id = out->array.children[0];
  struct ArrowArray* tag = out->array.children[2];
  id->dictionary = tag->dictionary;
  return 0;
}

/* A release callback that is not code. */
int release_not_code(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.release = (void (*)(struct ArrowArray*))(uintptr_t)0x1234;
  return 0;
}

/* The children pointer is garbage (the producer still releases its real children itself). */
int unreadable_children(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.children = (struct ArrowArray**)(uintptr_t)0x10;
  return 0;
}

/*
 * private_data points at the struct itself, so a moved copy would point into the old one. The release
 * finds its bookkeeping through a static instead, so that the struct can still be released.
 */
static struct array_node* self_pointer_node;

static void release_self_pointer(struct ArrowArray* array) {
  array->private_data = self_pointer_node;
  batch_release_array(array);
}

int self_pointer(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  self_pointer_node = node_of(&out->array);
  out->array.private_data = out;
  out->array.release = release_self_pointer;
  return 0;
}

/* A child schema with a format string the spec does not define. */
int schema_bad_format(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out_schema->children[0]->format = "q";
  return 0;
}

/* A schema flag the spec does not define. */
int schema_unknown_flag(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out_schema->children[1]->flags |= 0x100;
  return 0;
}

/* The producer reports failure. */
int producer_fails(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  return 22;
}
