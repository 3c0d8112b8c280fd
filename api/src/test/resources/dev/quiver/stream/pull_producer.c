/*
 * A C producer of struct ArrowDeviceArrayStream, written from the specification, with failures to
 * inject: an error code from get_next or get_schema, an array on another device type, an invalid array,
 * and a get_next that blocks until told to go on (to provoke concurrent use). It counts, in C, every
 * array it made and every release of arrays, schemas and the stream.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "int32_batches.h"

struct pull_producer {
  int64_t batches;
  int32_t device_type;
  int64_t mismatch_at;
  int64_t invalid_at;
  int64_t fail_at;
  int fail_code;
  int schema_fail_code;
  int block;
  int64_t next;
  char last_error[256];
  struct batch_counters arrays;
  atomic_long schemas_released;
  atomic_long streams_released;
  atomic_long get_next_calls;
  atomic_long calls_after_release;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int waiting;
  int go;
};

static struct pull_producer* producer_of(struct ArrowDeviceArrayStream* stream) {
  struct pull_producer* p = (struct pull_producer*)stream->private_data;
  if (stream->release == NULL) atomic_fetch_add(&p->calls_after_release, 1);
  return p;
}

static int get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct pull_producer* p = producer_of(stream);
  if (p->schema_fail_code != 0) {
    snprintf(p->last_error, sizeof p->last_error, "injected get_schema failure");
    return p->schema_fail_code;
  }
  make_int32_schema(out, 0, &p->schemas_released);
  return 0;
}

static int get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct pull_producer* p = producer_of(stream);
  atomic_fetch_add(&p->get_next_calls, 1);
  if (p->block) {
    pthread_mutex_lock(&p->mu);
    p->waiting++;
    pthread_cond_broadcast(&p->cv);
    while (!p->go) pthread_cond_wait(&p->cv, &p->mu);
    p->waiting--;
    pthread_mutex_unlock(&p->mu);
  }
  int64_t i = p->next;
  if (i == p->fail_at) {
    snprintf(p->last_error, sizeof p->last_error, "injected failure at batch %lld", (long long)i);
    return p->fail_code;
  }
  if (i >= p->batches) {
    memset(out, 0, sizeof *out); /* end of stream: a released array */
    return 0;
  }
  int32_t type = i == p->mismatch_at ? (p->device_type == ARROW_DEVICE_CPU ? ARROW_DEVICE_CUDA : ARROW_DEVICE_CPU) : p->device_type;
  int rc = make_int32_batch(out, i, type, i == p->invalid_at, &p->arrays);
  if (rc != 0) {
    snprintf(p->last_error, sizeof p->last_error, "out of memory");
    return rc;
  }
  p->next++;
  return 0;
}

static const char* get_last_error(struct ArrowDeviceArrayStream* stream) {
  return producer_of(stream)->last_error;
}

static void release_stream(struct ArrowDeviceArrayStream* stream) {
  struct pull_producer* p = (struct pull_producer*)stream->private_data;
  atomic_fetch_add(&p->streams_released, 1);
  stream->release = NULL;
}

/* A producer of `batches` batches; an index of -1 disables that failure. Free with pull_producer_free. */
struct pull_producer* pull_producer_new(int64_t batches, int32_t device_type, int64_t mismatch_at, int64_t invalid_at,
                                        int64_t fail_at, int fail_code, int schema_fail_code, int block) {
  struct pull_producer* p = (struct pull_producer*)calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->batches = batches;
  p->device_type = device_type;
  p->mismatch_at = mismatch_at;
  p->invalid_at = invalid_at;
  p->fail_at = fail_at;
  p->fail_code = fail_code;
  p->schema_fail_code = schema_fail_code;
  p->block = block;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  return p;
}

void pull_producer_export(struct pull_producer* p, struct ArrowDeviceArrayStream* out) {
  memset(out, 0, sizeof *out);
  out->device_type = p->device_type;
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = p;
}

/* 0 made, 1 arrays released, 2 schemas released, 3 streams released, 4 get_next calls, 5 threads blocked in
   get_next, 6 calls after release. */
long pull_producer_stat(struct pull_producer* p, int which) {
  switch (which) {
    case 0: return atomic_load(&p->arrays.made);
    case 1: return atomic_load(&p->arrays.released);
    case 2: return atomic_load(&p->schemas_released);
    case 3: return atomic_load(&p->streams_released);
    case 4: return atomic_load(&p->get_next_calls);
    case 5: {
      pthread_mutex_lock(&p->mu);
      long waiting = p->waiting;
      pthread_mutex_unlock(&p->mu);
      return waiting;
    }
    case 6: return atomic_load(&p->calls_after_release);
    default: return -1;
  }
}

/* Lets blocked get_next calls go on. */
void pull_producer_unblock(struct pull_producer* p) {
  pthread_mutex_lock(&p->mu);
  p->go = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

void pull_producer_free(struct pull_producer* p) {
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p);
}
