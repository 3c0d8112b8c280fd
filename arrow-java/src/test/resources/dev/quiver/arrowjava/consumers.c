/*
 * C consumers of what the bridge exports: one ArrowDeviceArray with its schema, or an
 * ArrowDeviceArrayStream, of struct<i: int32, s: utf8>. They check the device fields the C Device Data
 * Interface prescribes for the CPU, read every value, and release each struct exactly once, optionally from
 * a thread of their own, checking that every release marked its struct released.
 *
 * stats: [0] batches, [1] rows, [2] sum of the non-null i, [3] null i, [4] bytes of s, [5] violations,
 *        [6] releases that left release set, [7] code of the first violation
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "arrow_c_abi.h"

enum { BATCHES, ROWS, SUM, NULLS, BYTES, VIOLATIONS, BAD_RELEASES, FIRST_VIOLATION };

static void violation(int64_t* stats, int code) {
  if (stats[VIOLATIONS]++ == 0) stats[FIRST_VIOLATION] = code;
}

static int bit(const uint8_t* bits, int64_t i) {
  return bits == NULL || (bits[i / 8] >> (i % 8)) & 1;
}

static void check_schema(const struct ArrowSchema* schema, int64_t* stats) {
  if (strcmp(schema->format, "+s") != 0 || schema->n_children != 2) { violation(stats, 10); return; }
  if (strcmp(schema->children[0]->format, "i") != 0) violation(stats, 11);
  if (strcmp(schema->children[1]->format, "u") != 0) violation(stats, 12);
}

static void read_batch(const struct ArrowDeviceArray* in, int64_t* stats) {
  if (in->device_type != ARROW_DEVICE_CPU) violation(stats, 20);
  if (in->device_id != -1) violation(stats, 21);
  if (in->sync_event != NULL) violation(stats, 22);
  for (int k = 0; k < 3; k++) if (in->reserved[k] != 0) violation(stats, 23);
  const struct ArrowArray* batch = &in->array;
  if (batch->n_children != 2 || batch->offset != 0) { violation(stats, 24); return; }
  const struct ArrowArray* ints = batch->children[0];
  const struct ArrowArray* strings = batch->children[1];
  if (ints->n_buffers != 2 || strings->n_buffers != 3) { violation(stats, 25); return; }
  const uint8_t* valid = (const uint8_t*)ints->buffers[0];
  const int32_t* values = (const int32_t*)ints->buffers[1];
  for (int64_t r = 0; r < batch->length; r++) {
    int64_t at = ints->offset + r;
    if (bit(valid, at)) stats[SUM] += values[at]; else stats[NULLS]++;
  }
  const int32_t* offsets = (const int32_t*)strings->buffers[1];
  stats[BYTES] += offsets[strings->offset + batch->length] - offsets[strings->offset];
  stats[ROWS] += batch->length;
  stats[BATCHES]++;
}

static void* release_array(void* array) {
  struct ArrowArray* owned = (struct ArrowArray*)array;
  owned->release(owned);
  return NULL;
}

/* Moves the array to the heap and releases it, on a new thread if asked. */
static void release_moved(struct ArrowArray* source, int on_thread, int64_t* stats) {
  struct ArrowArray* owned = (struct ArrowArray*)malloc(sizeof *owned);
  memcpy(owned, source, sizeof *owned);
  source->release = NULL;
  if (on_thread) {
    pthread_t thread;
    pthread_create(&thread, NULL, release_array, owned);
    pthread_join(thread, NULL);
  } else {
    release_array(owned);
  }
  if (owned->release != NULL) stats[BAD_RELEASES]++;
  free(owned);
}

int consume_device_array(struct ArrowDeviceArray* in, struct ArrowSchema* schema, int release_on_thread, int64_t* stats) {
  memset(stats, 0, 8 * sizeof(int64_t));
  if (in->array.release == NULL || schema->release == NULL) return 1;
  check_schema(schema, stats);
  schema->release(schema);
  if (schema->release != NULL) stats[BAD_RELEASES]++;
  read_batch(in, stats);
  release_moved(&in->array, release_on_thread, stats);
  return 0;
}

int consume_device_stream(struct ArrowDeviceArrayStream* stream, int release_on_thread, int64_t* stats) {
  memset(stats, 0, 8 * sizeof(int64_t));
  if (stream->device_type != ARROW_DEVICE_CPU) violation(stats, 30);
  struct ArrowSchema schema;
  int code = stream->get_schema(stream, &schema);
  if (code != 0) return code;
  check_schema(&schema, stats);
  schema.release(&schema);
  if (schema.release != NULL) stats[BAD_RELEASES]++;
  for (;;) {
    struct ArrowDeviceArray next;
    memset(&next, 0, sizeof next);
    code = stream->get_next(stream, &next);
    if (code != 0) break;
    if (next.array.release == NULL) break;
    if (next.device_type != stream->device_type) violation(stats, 31);
    read_batch(&next, stats);
    release_moved(&next.array, release_on_thread, stats);
  }
  stream->release(stream);
  if (stream->release != NULL) stats[BAD_RELEASES]++;
  return code;
}
