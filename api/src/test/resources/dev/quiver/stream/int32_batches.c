#include <stdlib.h>
#include <string.h>
#include "int32_batches.h"

struct batch {
  int32_t values[3];
  const void* buffers[2];
  struct batch_counters* counters;
};

static void release_int32_batch(struct ArrowArray* array) {
  struct batch* batch = (struct batch*)array->private_data;
  atomic_fetch_add(&batch->counters->released, 1);
  free(batch);
  array->release = NULL;
}

int make_int32_batch(struct ArrowDeviceArray* out, int64_t index, int32_t device_type, int invalid,
                     struct batch_counters* counters) {
  struct batch* batch = (struct batch*)malloc(sizeof *batch);
  if (batch == NULL) return 12;
  for (int i = 0; i < 3; i++) batch->values[i] = (int32_t)(3 * index + i);
  batch->buffers[0] = NULL;
  batch->buffers[1] = batch->values;
  batch->counters = counters;
  memset(out, 0, sizeof *out);
  out->array.length = invalid ? -1 : 3;
  out->array.null_count = 0;
  out->array.n_buffers = 2;
  out->array.buffers = batch->buffers;
  out->array.release = release_int32_batch;
  out->array.private_data = batch;
  out->device_id = device_type == ARROW_DEVICE_CPU ? -1 : 0;
  out->device_type = device_type;
  atomic_fetch_add(&counters->made, 1);
  return 0;
}

static void release_int32_schema(struct ArrowSchema* schema) {
  atomic_long* released = (atomic_long*)schema->private_data;
  atomic_fetch_add(released, 1);
  schema->release = NULL;
}

void make_int32_schema(struct ArrowSchema* out, int bad, atomic_long* released) {
  memset(out, 0, sizeof *out);
  out->format = bad ? "not a format" : "i";
  out->name = "v";
  out->flags = ARROW_FLAG_NULLABLE;
  out->release = release_int32_schema;
  out->private_data = released;
}

int check_int32_batch(const struct ArrowDeviceArray* in, int64_t index, int32_t device_type) {
  if (in->array.release == NULL) return 1;
  if (in->device_type != device_type) return 2;
  if (in->array.length != 3) return 3;
  if (in->array.n_buffers != 2 || in->array.n_children != 0) return 4;
  if (in->array.null_count != 0 && in->array.null_count != -1) return 5;
  const int32_t* values = (const int32_t*)in->array.buffers[1];
  if (values == NULL) return 6;
  for (int i = 0; i < 3; i++) {
    if (values[in->array.offset + i] != (int32_t)(3 * index + i)) return 7;
  }
  for (int i = 0; i < 3; i++) {
    if (in->reserved[i] != 0) return 8;
  }
  return 0;
}

int check_int32_schema(const struct ArrowSchema* schema) {
  if (schema->release == NULL) return 1;
  if (schema->format == NULL || strcmp(schema->format, "i") != 0) return 2;
  if (schema->n_children != 0) return 3;
  return 0;
}

int release_batch(struct ArrowDeviceArray* array) {
  array->array.release(&array->array);
  return array->array.release == NULL ? 0 : 1;
}
