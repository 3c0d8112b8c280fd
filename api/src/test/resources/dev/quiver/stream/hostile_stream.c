/*
 * A hostile C producer of struct ArrowDeviceArrayStream: its get_next fails with an error code AND fills
 * `out` with a live array (which the consumer must still release), and its get_last_error returns a
 * message of `message_bytes` bytes (a consumer must not copy it whole). Counts, in C, the arrays it made
 * and released and the stream's release.
 */
#include <stdlib.h>
#include <string.h>
#include "int32_batches.h"

struct hostile_stream {
  struct batch_counters arrays;
  atomic_long schemas_released;
  atomic_long streams_released;
  char* message;
};

static struct hostile_stream* hostile_of(struct ArrowDeviceArrayStream* stream) {
  return (struct hostile_stream*)stream->private_data;
}

static int get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  make_int32_schema(out, 0, &hostile_of(stream)->schemas_released);
  return 0;
}

static int get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct hostile_stream* h = hostile_of(stream);
  make_int32_batch(out, 0, ARROW_DEVICE_CPU, 0, &h->arrays);
  return 5; /* EIO, with out filled in anyway */
}

static const char* get_last_error(struct ArrowDeviceArrayStream* stream) {
  return hostile_of(stream)->message;
}

static void release_stream(struct ArrowDeviceArrayStream* stream) {
  atomic_fetch_add(&hostile_of(stream)->streams_released, 1);
  stream->release = NULL;
}

/* A producer whose message is `message_bytes` 'x' bytes then a terminator. Free with hostile_stream_free. */
struct hostile_stream* hostile_stream_new(int64_t message_bytes) {
  struct hostile_stream* h = calloc(1, sizeof *h);
  h->message = malloc((size_t)message_bytes + 1);
  memset(h->message, 'x', (size_t)message_bytes);
  h->message[message_bytes] = '\0';
  return h;
}

void hostile_stream_export(struct hostile_stream* h, struct ArrowDeviceArrayStream* out) {
  memset(out, 0, sizeof *out);
  out->device_type = ARROW_DEVICE_CPU;
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = h;
}

/* 0: arrays made, 1: arrays released, 2: schemas released, 3: streams released. */
int64_t hostile_stream_stat(struct hostile_stream* h, int which) {
  switch (which) {
    case 0: return atomic_load(&h->arrays.made);
    case 1: return atomic_load(&h->arrays.released);
    case 2: return atomic_load(&h->schemas_released);
    default: return atomic_load(&h->streams_released);
  }
}

void hostile_stream_free(struct hostile_stream* h) {
  free(h->message);
  free(h);
}
