/*
 * A C consumer of the async device stream, written from the specification: it allocates the handler,
 * requests `first_request` batches in on_schema and then one more from inside each on_next_task, extracts
 * each task (with a NULL array for every `discard_every`-th: discard), checks and releases each array.
 * It can cancel midway (three cancels, one from another pthread, to check idempotence and thread safety)
 * or return an error code from on_next_task. Everything is counted in C, including callbacks that overlap
 * or nest (which the producer must never cause) and on_error calls after a cancel (which it must not make).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "async_abi.h"
#include "int32_batches.h"

struct async_consumer {
  struct ArrowAsyncDeviceStreamHandler handler; /* first: the handler pointer is the state pointer */
  int64_t cancel_at;
  int64_t fail_at;
  int fail_code;
  int64_t discard_every;
  int64_t first_request;
  int32_t device_type;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int released;
  atomic_int in_callback;
  int cancelled;
  int64_t tasks;
  long stats[20];
  char error_message[256];
  char error_metadata[256];
  char additional_metadata[256];
};

enum {
  SCHEMA_OK, TASKS, ARRAYS_OK, ARRAYS_RELEASED, DISCARDED, EXTRACT_FAILURES, END_SEEN, ERRORS, ERROR_CODE,
  ERRORS_AFTER_CANCEL, OVERLAPPING_CALLBACKS, CALLBACKS_AFTER_RELEASE, PRODUCER_DEVICE_TYPE, RELEASED,
  FIRST_BAD_RULE, TASKS_AFTER_END, CANCEL_CALLS
};

static struct async_consumer* enter(struct ArrowAsyncDeviceStreamHandler* self) {
  struct async_consumer* c = (struct async_consumer*)self;
  if (atomic_fetch_add(&c->in_callback, 1) != 0) c->stats[OVERLAPPING_CALLBACKS]++;
  if (c->released) c->stats[CALLBACKS_AFTER_RELEASE]++;
  return c;
}

static void leave(struct async_consumer* c) {
  atomic_fetch_sub(&c->in_callback, 1);
}

static void decode_first_pair(const char* metadata, char* out, size_t capacity) {
  out[0] = '\0';
  if (metadata == NULL) return;
  int32_t count, key_length, value_length;
  memcpy(&count, metadata, 4);
  if (count < 1) return;
  memcpy(&key_length, metadata + 4, 4);
  memcpy(&value_length, metadata + 8 + key_length, 4);
  snprintf(out, capacity, "%.*s=%.*s", (int)key_length, metadata + 8, (int)value_length, metadata + 12 + key_length);
}

static int on_schema(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowSchema* schema) {
  struct async_consumer* c = enter(self);
  int rule = check_int32_schema(schema);
  schema->release(schema);
  c->stats[SCHEMA_OK] = rule == 0;
  c->stats[PRODUCER_DEVICE_TYPE] = self->producer->device_type;
  decode_first_pair(self->producer->additional_metadata, c->additional_metadata, sizeof c->additional_metadata);
  self->producer->request(self->producer, c->first_request);
  leave(c);
  return 0;
}

static void* cancel_from_other_thread(void* producer) {
  struct ArrowAsyncProducer* p = (struct ArrowAsyncProducer*)producer;
  p->cancel(p);
  return NULL;
}

static int on_next_task(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task, const char* metadata) {
  struct async_consumer* c = enter(self);
  if (task == NULL) {
    c->stats[END_SEEN]++;
    leave(c);
    return 0;
  }
  if (c->stats[END_SEEN]) c->stats[TASKS_AFTER_END]++;
  int64_t index = c->tasks++;
  c->stats[TASKS]++;
  if (c->discard_every > 0 && (index + 1) % c->discard_every == 0) {
    if (task->extract_data(task, NULL) == 0) c->stats[DISCARDED]++; else c->stats[EXTRACT_FAILURES]++;
  } else {
    struct ArrowDeviceArray array;
    if (task->extract_data(task, &array) != 0) {
      c->stats[EXTRACT_FAILURES]++;
    } else {
      int rule = check_int32_batch(&array, index, c->device_type);
      if (rule == 0) c->stats[ARRAYS_OK]++; else if (c->stats[FIRST_BAD_RULE] == 0) c->stats[FIRST_BAD_RULE] = rule;
      if (release_batch(&array) == 0) c->stats[ARRAYS_RELEASED]++;
    }
  }
  if (c->tasks == c->fail_at) {
    leave(c);
    return c->fail_code;
  }
  if (c->tasks == c->cancel_at) {
    pthread_t other;
    c->cancelled = 1;
    pthread_create(&other, NULL, cancel_from_other_thread, self->producer);
    self->producer->cancel(self->producer);
    self->producer->cancel(self->producer);
    pthread_join(other, NULL);
    c->stats[CANCEL_CALLS] += 3;
  } else if (!c->cancelled) {
    self->producer->request(self->producer, 1);
  }
  leave(c);
  return 0;
}

static void on_error(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message, const char* metadata) {
  struct async_consumer* c = enter(self);
  c->stats[ERRORS]++;
  c->stats[ERROR_CODE] = code;
  if (c->cancelled) c->stats[ERRORS_AFTER_CANCEL]++;
  snprintf(c->error_message, sizeof c->error_message, "%s", message == NULL ? "(NULL)" : message);
  decode_first_pair(metadata, c->error_metadata, sizeof c->error_metadata);
  leave(c);
}

static void release(struct ArrowAsyncDeviceStreamHandler* self) {
  struct async_consumer* c = enter(self);
  leave(c);
  pthread_mutex_lock(&c->mu);
  c->released = 1;
  c->stats[RELEASED]++;
  self->release = NULL;
  pthread_cond_broadcast(&c->cv);
  pthread_mutex_unlock(&c->mu);
}

/* A consumer; the returned pointer is its struct ArrowAsyncDeviceStreamHandler*. Indexes count tasks from 1; -1 disables. */
struct async_consumer* async_consumer_new(int32_t device_type, int64_t first_request, int64_t cancel_at, int64_t fail_at,
                                          int fail_code, int64_t discard_every) {
  struct async_consumer* c = (struct async_consumer*)calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  c->handler.on_schema = on_schema;
  c->handler.on_next_task = on_next_task;
  c->handler.on_error = on_error;
  c->handler.release = release;
  c->device_type = device_type;
  c->first_request = first_request;
  c->cancel_at = cancel_at;
  c->fail_at = fail_at;
  c->fail_code = fail_code;
  c->discard_every = discard_every;
  pthread_mutex_init(&c->mu, NULL);
  pthread_cond_init(&c->cv, NULL);
  return c;
}

/* 0 once the handler was released; ETIMEDOUT if that did not happen within timeout_ms. */
int async_consumer_wait(struct async_consumer* c, int64_t timeout_ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += timeout_ms / 1000;
  until.tv_nsec += (timeout_ms % 1000) * 1000000;
  if (until.tv_nsec >= 1000000000) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&c->mu);
  int rc = 0;
  while (!c->released && rc == 0) rc = pthread_cond_timedwait(&c->cv, &c->mu, &until);
  int released = c->released;
  pthread_mutex_unlock(&c->mu);
  return released ? 0 : ETIMEDOUT;
}

long async_consumer_stat(struct async_consumer* c, int which) {
  return which >= 0 && which < 20 ? c->stats[which] : -1;
}

/* 0 error message, 1 first pair of the error metadata ("k=v"), 2 first pair of additional_metadata */
const char* async_consumer_text(struct async_consumer* c, int which) {
  return which == 0 ? c->error_message : which == 1 ? c->error_metadata : c->additional_metadata;
}

void async_consumer_free(struct async_consumer* c) {
  pthread_mutex_destroy(&c->mu);
  pthread_cond_destroy(&c->cv);
  free(c);
}
