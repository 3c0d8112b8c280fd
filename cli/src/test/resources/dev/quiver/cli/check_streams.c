/*
 * ArrowDeviceArrayStream producers for `quiver check --stream`, written from the C device stream
 * interface: each hands out the batch of check_batch.h a few times. stream_batches conforms; the others
 * break one rule each, as their names say.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check_batch.h"

static atomic_long stream_releases;

long stream_release_count(void) { return atomic_load(&stream_releases); }

/* What a stream does; the fields select the one rule it breaks. */
struct stream_state {
  int next;
  int count;
  int fail_at;          /* get_next fails at this array (-1: never) */
  int fail_code;        /* ... returning this */
  const char* message;  /* ... and get_last_error returns this */
  int end_with_error;   /* the end is signalled by an error code instead of a released array */
  int foreign_at;       /* this array is on CUDA_HOST device 0 instead of the stream's CPU (-1: none) */
  int mark_released;    /* release sets release = NULL */
};

static int get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  batch_schema(out);
  return 0;
}

static int get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct stream_state* state = (struct stream_state*)stream->private_data;
  if (state->next == state->fail_at) {
    return state->fail_code;
  }
  if (state->next == state->count) {
    if (state->end_with_error) {
      return -1;
    }
    memset(out, 0, sizeof *out); /* end of stream: a released array */
    return 0;
  }
  batch_device_array(out);
  if (state->next == state->foreign_at) {
    out->device_type = ARROW_DEVICE_CUDA_HOST;
    out->device_id = 0;
  }
  state->next++;
  return 0;
}

static const char* get_last_error(struct ArrowDeviceArrayStream* stream) {
  return ((struct stream_state*)stream->private_data)->message;
}

static void release(struct ArrowDeviceArrayStream* stream) {
  struct stream_state* state = (struct stream_state*)stream->private_data;
  int mark = state->mark_released;
  free(state);
  atomic_fetch_add(&stream_releases, 1);
  if (mark) {
    stream->release = NULL;
  }
}

static int make(struct ArrowDeviceArrayStream* out, struct stream_state settings) {
  struct stream_state* state = (struct stream_state*)malloc(sizeof *state);
  *state = settings;
  memset(out, 0, sizeof *out);
  out->device_type = ARROW_DEVICE_CPU;
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release;
  out->private_data = state;
  return 0;
}

static struct stream_state conforming(void) {
  struct stream_state s = {0, 3, -1, 0, NULL, 0, -1, 1};
  return s;
}

/* Three CPU batches, then the end. */
int stream_batches(struct ArrowDeviceArrayStream* out) {
  return make(out, conforming());
}

/* The second array is on CUDA_HOST, the stream says CPU. */
int stream_foreign_device(struct ArrowDeviceArrayStream* out) {
  struct stream_state s = conforming();
  s.foreign_at = 1;
  return make(out, s);
}

/* The end of the stream is signalled by returning -1, not by a released array. */
int stream_ends_with_error(struct ArrowDeviceArrayStream* out) {
  struct stream_state s = conforming();
  s.end_with_error = 1;
  return make(out, s);
}

/* get_next fails with EIO and get_last_error returns a pointer to nothing readable. */
int stream_unreadable_error(struct ArrowDeviceArrayStream* out) {
  struct stream_state s = conforming();
  s.fail_at = 1;
  s.fail_code = EIO;
  s.message = (const char*)(uintptr_t)0x8;
  return make(out, s);
}

/* get_next fails with EIO and says why. */
int stream_fails(struct ArrowDeviceArrayStream* out) {
  struct stream_state s = conforming();
  s.fail_at = 2;
  s.fail_code = EIO;
  s.message = "disk on fire";
  return make(out, s);
}

/* get_last_error is missing. */
int stream_without_last_error(struct ArrowDeviceArrayStream* out) {
  make(out, conforming());
  out->get_last_error = NULL;
  return 0;
}

/* The stream's release does not mark it released. */
int stream_release_not_marked(struct ArrowDeviceArrayStream* out) {
  struct stream_state s = conforming();
  s.mark_released = 0;
  return make(out, s);
}
