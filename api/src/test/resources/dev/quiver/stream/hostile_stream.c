/*
 * A hostile C producer of struct ArrowDeviceArrayStream: its get_next fails with an error code AND fills
 * `out` with a live array (which the consumer must still release), and its get_last_error returns a
 * message a consumer must read with care: `message_bytes` bytes on the heap (not to be copied whole), a
 * pointer to unreadable memory, or `message_bytes` bytes without a terminator that end where unreadable
 * memory begins. Counts, in C, the arrays it made and released and the stream's release.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and sysconf under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "int32_batches.h"

/* Where get_last_error's message lies. */
enum message_place { MESSAGE_ON_HEAP = 0, MESSAGE_UNREADABLE = 1, MESSAGE_AT_PAGE_END = 2 };

struct hostile_stream {
  struct batch_counters arrays;
  atomic_long schemas_released;
  atomic_long streams_released;
  int place;
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

/*
 * `bytes` bytes (at most a page) that end where a PROT_NONE page begins: reading past them faults, as
 * reading unmapped memory does. Never unmapped, so that no address turns from readable to unreadable
 * under a cached map of the process's readable memory.
 */
static char* before_unreadable_page(size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char* at = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (at == MAP_FAILED || mprotect(at + page, page, PROT_NONE) != 0) abort();
  return at + page - bytes;
}

/* A producer whose message, placed as `place` says (a message_place), is `message_bytes` 'x' bytes with a
 * terminator on the heap, none at all where unreadable, and without a terminator at a page end. Free with
 * hostile_stream_free. */
struct hostile_stream* hostile_stream_new(int64_t message_bytes, int place) {
  struct hostile_stream* h = calloc(1, sizeof *h);
  h->place = place;
  if (place == MESSAGE_UNREADABLE) {
    h->message = before_unreadable_page(0);
    return h;
  }
  if (place == MESSAGE_ON_HEAP) {
    h->message = malloc((size_t)message_bytes + 1);
    h->message[message_bytes] = '\0';
  } else {
    h->message = before_unreadable_page((size_t)message_bytes);
  }
  memset(h->message, 'x', (size_t)message_bytes);
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
  if (h->place == MESSAGE_ON_HEAP) free(h->message);
  free(h);
}
