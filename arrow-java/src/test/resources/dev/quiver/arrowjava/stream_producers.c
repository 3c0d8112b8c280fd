/*
 * An ArrowDeviceArrayStream (CPU) and a plain ArrowArrayStream of record batches (record_batches.h), each
 * counting its releases, for the bridge's stream tests.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "record_batches.h"

struct producer {
  int64_t batches;
  int64_t rows;
  int64_t next;
  atomic_long stream_releases;
  struct batch_counters counters;
};

struct producer* producer_new(int64_t batches, int64_t rows) {
  struct producer* p = (struct producer*)calloc(1, sizeof *p);
  p->batches = batches;
  p->rows = rows;
  return p;
}

/* 0 batches made, 1 nodes released, 2 batch allocations freed, 3 schemas released, 4 stream releases */
int64_t producer_stat(struct producer* p, int which) {
  switch (which) {
    case 0: return atomic_load(&p->counters.batches_made);
    case 1: return atomic_load(&p->counters.nodes_released);
    case 2: return atomic_load(&p->counters.batches_freed);
    case 3: return atomic_load(&p->counters.schemas_released);
    default: return atomic_load(&p->stream_releases);
  }
}

void producer_free(struct producer* p) {
  free(p);
}

static const char* no_error(void* stream) {
  return NULL;
}

/* ---- ArrowDeviceArrayStream ---- */

static int device_get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  make_record_batch_schema(out, &((struct producer*)stream->private_data)->counters);
  return 0;
}

static int device_get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct producer* p = (struct producer*)stream->private_data;
  memset(out, 0, sizeof *out);
  out->device_id = -1;
  out->device_type = ARROW_DEVICE_CPU;
  if (p->next == p->batches) {
    return 0;
  }
  return make_record_batch(&out->array, p->next++, p->rows, &p->counters);
}

static const char* device_last_error(struct ArrowDeviceArrayStream* stream) {
  return no_error(stream);
}

static void device_release(struct ArrowDeviceArrayStream* stream) {
  atomic_fetch_add(&((struct producer*)stream->private_data)->stream_releases, 1);
  stream->release = NULL;
}

void producer_export_device_stream(struct producer* p, struct ArrowDeviceArrayStream* out) {
  memset(out, 0, sizeof *out);
  out->device_type = ARROW_DEVICE_CPU;
  out->get_schema = device_get_schema;
  out->get_next = device_get_next;
  out->get_last_error = device_last_error;
  out->release = device_release;
  out->private_data = p;
}

/* ---- ArrowArrayStream ---- */

static int plain_get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  make_record_batch_schema(out, &((struct producer*)stream->private_data)->counters);
  return 0;
}

static int plain_get_next(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct producer* p = (struct producer*)stream->private_data;
  if (p->next == p->batches) {
    memset(out, 0, sizeof *out);
    return 0;
  }
  return make_record_batch(out, p->next++, p->rows, &p->counters);
}

static const char* plain_last_error(struct ArrowArrayStream* stream) {
  return no_error(stream);
}

static void plain_release(struct ArrowArrayStream* stream) {
  atomic_fetch_add(&((struct producer*)stream->private_data)->stream_releases, 1);
  stream->release = NULL;
}

void producer_export_array_stream(struct producer* p, struct ArrowArrayStream* out) {
  memset(out, 0, sizeof *out);
  out->get_schema = plain_get_schema;
  out->get_next = plain_get_next;
  out->get_last_error = plain_last_error;
  out->release = plain_release;
  out->private_data = p;
}
