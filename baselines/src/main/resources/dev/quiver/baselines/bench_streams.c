/*
 * The C side of the stream benchmarks, written from the Arrow C Device Data Interface specification:
 * a consumer that drains an ArrowDeviceArrayStream (get_next, release each array, release the stream)
 * and a producer of int32 batches of length 3 in host memory.
 */
#include <stdlib.h>
#include <string.h>
#include "arrow_c_abi.h"

/* Pulls every batch and releases it, then the stream. Returns the batch count, or minus the error code. */
int64_t bench_drain(struct ArrowDeviceArrayStream* stream) {
  struct ArrowSchema schema;
  int rc = stream->get_schema(stream, &schema);
  if (rc != 0) {
    stream->release(stream);
    return -rc;
  }
  schema.release(&schema);
  int64_t batches = 0;
  struct ArrowDeviceArray array;
  for (;;) {
    rc = stream->get_next(stream, &array);
    if (rc != 0 || array.array.release == NULL) break;
    batches++;
    array.array.release(&array.array);
  }
  stream->release(stream);
  return rc != 0 ? -rc : batches;
}

struct bench_producer {
  int64_t batches;
  int64_t next;
};

struct bench_batch {
  int32_t values[3];
  const void* buffers[2];
};

static void release_batch(struct ArrowArray* array) {
  free(array->private_data);
  array->release = NULL;
}

static void release_schema(struct ArrowSchema* schema) {
  schema->release = NULL;
}

static int get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  memset(out, 0, sizeof *out);
  out->format = "i";
  out->name = "v";
  out->flags = ARROW_FLAG_NULLABLE;
  out->release = release_schema;
  return 0;
}

static int get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct bench_producer* p = (struct bench_producer*)stream->private_data;
  memset(out, 0, sizeof *out);
  if (p->next == p->batches) return 0;
  struct bench_batch* batch = (struct bench_batch*)malloc(sizeof *batch);
  if (batch == NULL) return 12;
  for (int i = 0; i < 3; i++) batch->values[i] = (int32_t)(3 * p->next + i);
  batch->buffers[0] = NULL;
  batch->buffers[1] = batch->values;
  out->array.length = 3;
  out->array.n_buffers = 2;
  out->array.buffers = batch->buffers;
  out->array.release = release_batch;
  out->array.private_data = batch;
  out->device_id = -1;
  out->device_type = ARROW_DEVICE_CPU;
  p->next++;
  return 0;
}

static const char* get_last_error(struct ArrowDeviceArrayStream* stream) {
  return NULL;
}

static void release_stream(struct ArrowDeviceArrayStream* stream) {
  free(stream->private_data);
  stream->release = NULL;
}

/* Fills out with a CPU stream of `batches` int32 batches. */
void bench_producer_export(struct ArrowDeviceArrayStream* out, int64_t batches) {
  struct bench_producer* p = (struct bench_producer*)calloc(1, sizeof *p);
  p->batches = batches;
  memset(out, 0, sizeof *out);
  out->device_type = ARROW_DEVICE_CPU;
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = p;
}
