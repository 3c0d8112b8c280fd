/*
 * A C producer of the async device stream, written from the specification. It runs on a pthread it
 * creates itself: sets handler->producer, calls on_schema, then waits for credit from request() and calls
 * on_next_task with one task per batch (end of stream: a NULL task), then the handler's release, and only
 * after that lets its ArrowAsyncProducer go. request() and cancel() only record and wake the thread; they
 * never call the handler. Failures to inject: on_error at a batch, an invalid schema, an array on another
 * device type, an invalid array. Everything is counted in C.
 *
 * With `reentrant` set it breaks the rules on purpose: request() calls on_next_task synchronously (even from
 * inside on_schema), to check that the consumer still never nests or overlaps its own signals.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "async_abi.h"
#include "int32_batches.h"

struct async_producer {
  struct ArrowAsyncProducer producer; /* first: the producer pointer is the state pointer */
  struct ArrowAsyncDeviceStreamHandler* handler;
  int64_t batches;
  int64_t mismatch_at;
  int64_t invalid_at;
  int64_t error_at;
  int error_code;
  int bad_schema;
  int reentrant;
  int64_t sent;
  int delivering;
  char metadata[64];
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t requested;
  int cancelled;
  int after_cancel; /* what the producer does once cancelled: 0 release, 1 end the stream, 2 on_error(ECANCELED) */
  int64_t bad_request;
  struct batch_counters arrays;
  atomic_long schemas_released;
  atomic_long tasks_sent;
  atomic_long tasks_extracted;
  atomic_long tasks_discarded;
  atomic_long tasks_not_extracted;
  atomic_long request_calls;
  atomic_long requests_in_callback;
  atomic_long cancel_calls;
  atomic_long calls_after_release;
  atomic_long on_schema_rc;
  atomic_long on_next_task_rc;
  atomic_long released;
  atomic_long ended;
  atomic_long errors_sent;
};

struct task_state {
  struct async_producer* producer;
  int64_t index;
  int extracted;
};

static _Thread_local int in_callback;

static int extract_data(struct ArrowAsyncTask* task, struct ArrowDeviceArray* out) {
  struct task_state* state = (struct task_state*)task->private_data;
  struct async_producer* p = state->producer;
  if (state->extracted) return EINVAL;
  state->extracted = 1;
  if (out == NULL) {
    atomic_fetch_add(&p->tasks_discarded, 1);
    return 0;
  }
  int32_t type = state->index == p->mismatch_at
      ? (p->producer.device_type == ARROW_DEVICE_CPU ? ARROW_DEVICE_CUDA : ARROW_DEVICE_CPU) : p->producer.device_type;
  int rc = make_int32_batch(out, state->index, type, state->index == p->invalid_at, &p->arrays);
  if (rc == 0) atomic_fetch_add(&p->tasks_extracted, 1);
  return rc;
}

static int send_task(struct async_producer* p, int64_t index);

/* The rule-breaking mode: deliver what is requested right here, on the caller's thread. */
static void deliver_synchronously(struct async_producer* p) {
  if (p->delivering) return; /* a request from inside on_next_task: the outer loop sends it */
  p->delivering = 1;
  while (p->requested > 0 && p->sent < p->batches && !p->cancelled) {
    p->requested--;
    if (send_task(p, p->sent++) != 0) break;
  }
  if (p->sent == p->batches && !atomic_load(&p->ended)) {
    atomic_store(&p->ended, 1);
    p->handler->on_next_task(p->handler, NULL, NULL);
  }
  p->delivering = 0;
}

static void request(struct ArrowAsyncProducer* self, int64_t n) {
  struct async_producer* p = (struct async_producer*)self;
  if (p->reentrant) {
    atomic_fetch_add(&p->request_calls, 1);
    if (in_callback) atomic_fetch_add(&p->requests_in_callback, 1);
    if (n > 0) p->requested += n;
    deliver_synchronously(p);
    return;
  }
  if (atomic_load(&p->released)) atomic_fetch_add(&p->calls_after_release, 1);
  atomic_fetch_add(&p->request_calls, 1);
  if (in_callback) atomic_fetch_add(&p->requests_in_callback, 1);
  pthread_mutex_lock(&p->mu);
  if (!p->cancelled) {
    if (n <= 0) {
      p->bad_request = n == 0 ? -1 : n;
    } else {
      p->requested += n;
    }
    pthread_cond_broadcast(&p->cv);
  }
  pthread_mutex_unlock(&p->mu);
}

static void cancel(struct ArrowAsyncProducer* self) {
  struct async_producer* p = (struct async_producer*)self;
  if (atomic_load(&p->released)) atomic_fetch_add(&p->calls_after_release, 1);
  atomic_fetch_add(&p->cancel_calls, 1);
  pthread_mutex_lock(&p->mu);
  p->cancelled = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

/* Waits for credit. 1: go on, 0: cancelled and no credit left, -1: a bad request arrived. After a cancel the
   producer finishes out the tasks already requested, as the specification allows. */
static int await_credit(struct async_producer* p) {
  pthread_mutex_lock(&p->mu);
  while (p->requested == 0 && !p->cancelled && p->bad_request == 0) pthread_cond_wait(&p->cv, &p->mu);
  int result = p->bad_request != 0 ? -1 : p->requested > 0 ? 1 : 0;
  if (result == 1) p->requested--;
  pthread_mutex_unlock(&p->mu);
  return result;
}

static void error_metadata(char* out, int64_t batch) {
  /* {"batch": "<n>"} encoded as ArrowSchema.metadata: int32 count, then length-prefixed key and value */
  char value[24];
  int32_t count = 1, key_length = 5, value_length = (int32_t)snprintf(value, sizeof value, "%lld", (long long)batch);
  memcpy(out, &count, 4);
  memcpy(out + 4, &key_length, 4);
  memcpy(out + 8, "batch", 5);
  memcpy(out + 13, &value_length, 4);
  memcpy(out + 17, value, (size_t)value_length);
}

/* One task for batch `index`; returns what on_next_task returned (recorded if not 0). */
static int send_task(struct async_producer* p, int64_t index) {
  struct task_state* state = (struct task_state*)calloc(1, sizeof *state);
  state->producer = p;
  state->index = index;
  struct ArrowAsyncTask task = {extract_data, state};
  atomic_fetch_add(&p->tasks_sent, 1);
  int outer = in_callback;
  in_callback = 1;
  int rc = p->handler->on_next_task(p->handler, &task, NULL);
  in_callback = outer;
  if (state->extracted) {
    free(state);
  } else {
    atomic_fetch_add(&p->tasks_not_extracted, 1); /* the task struct is gone; its state is leaked on purpose */
  }
  if (rc != 0) atomic_store(&p->on_next_task_rc, rc);
  return rc;
}

static void* run(void* arg) {
  struct async_producer* p = (struct async_producer*)arg;
  struct ArrowAsyncDeviceStreamHandler* h = p->handler;
  h->producer = &p->producer;
  struct ArrowSchema schema;
  make_int32_schema(&schema, p->bad_schema, &p->schemas_released);
  in_callback = 1;
  int rc = h->on_schema(h, &schema);
  in_callback = 0;
  if (schema.release != NULL) schema.release(&schema); /* the handler must have moved or released it */
  atomic_store(&p->on_schema_rc, rc);
  if (rc != 0) goto done;
  if (p->reentrant) goto done; /* everything was sent from inside request(), nested in on_schema */
  for (int64_t i = 0;; i++) {
    if (i == p->error_at) {
      char metadata[64];
      char message[64];
      error_metadata(metadata, i);
      snprintf(message, sizeof message, "injected producer failure at batch %lld", (long long)i);
      atomic_fetch_add(&p->errors_sent, 1);
      h->on_error(h, p->error_code, message, metadata);
      goto done;
    }
    if (i == p->batches) {
      h->on_next_task(h, NULL, NULL);
      atomic_store(&p->ended, 1);
      goto done;
    }
    int credit = await_credit(p);
    if (credit == 0) {
      /* cancelled: the specification lets a producer go quietly, end the stream or report the cancel */
      if (p->after_cancel == 1) {
        h->on_next_task(h, NULL, NULL);
        atomic_store(&p->ended, 1);
      } else if (p->after_cancel == 2) {
        atomic_fetch_add(&p->errors_sent, 1);
        h->on_error(h, ECANCELED, "cancelled by the consumer", NULL);
      }
      goto done;
    }
    if (credit < 0) {
      char message[64];
      snprintf(message, sizeof message, "request(n) needs n > 0, got %lld", (long long)(p->bad_request < 0 ? 0 : p->bad_request));
      atomic_fetch_add(&p->errors_sent, 1);
      h->on_error(h, EINVAL, message, NULL);
      goto done;
    }
    if (send_task(p, i) != 0) goto done; /* no on_error after the consumer's error: just release */
  }
done:
  h->release(h);
  atomic_store(&p->released, 1); /* the producer struct stays valid until after release, as the spec demands */
  return NULL;
}

/* Starts a producer thread for `handler`. Indexes of -1 disable the failure. */
/* What producers started from now on do once cancelled (see struct async_producer.after_cancel). */
static atomic_int next_after_cancel;
void async_producer_after_cancel(int mode) { atomic_store(&next_after_cancel, mode); }

struct async_producer* async_producer_start(struct ArrowAsyncDeviceStreamHandler* handler, int64_t batches,
                                            int32_t device_type, int64_t mismatch_at, int64_t invalid_at,
                                            int64_t error_at, int error_code, int bad_schema, int reentrant) {
  struct async_producer* p = (struct async_producer*)calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->producer.device_type = device_type;
  p->producer.request = request;
  p->producer.cancel = cancel;
  /* additional_metadata {"batches": "<n>"} */
  char value[24];
  int32_t count = 1, key_length = 7, value_length = (int32_t)snprintf(value, sizeof value, "%lld", (long long)batches);
  memcpy(p->metadata, &count, 4);
  memcpy(p->metadata + 4, &key_length, 4);
  memcpy(p->metadata + 8, "batches", 7);
  memcpy(p->metadata + 15, &value_length, 4);
  memcpy(p->metadata + 19, value, (size_t)value_length);
  p->producer.additional_metadata = p->metadata;
  p->producer.private_data = NULL;
  p->handler = handler;
  p->batches = batches;
  p->mismatch_at = mismatch_at;
  p->invalid_at = invalid_at;
  p->error_at = error_at;
  p->error_code = error_code;
  p->bad_schema = bad_schema;
  p->reentrant = reentrant;
  p->after_cancel = atomic_load(&next_after_cancel);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  if (pthread_create(&p->thread, NULL, run, p) != 0) {
    free(p);
    return NULL;
  }
  return p;
}

void async_producer_join(struct async_producer* p) {
  pthread_join(p->thread, NULL);
}

/* 0 made 1 arrays released 2 schemas released 3 tasks sent 4 extracted 5 discarded 6 not extracted
   7 request calls 8 requests from inside a callback 9 cancel calls 10 calls after release
   11 on_schema code 12 first non-zero on_next_task code 13 released 14 ended 15 on_error calls */
long async_producer_stat(struct async_producer* p, int which) {
  switch (which) {
    case 0: return atomic_load(&p->arrays.made);
    case 1: return atomic_load(&p->arrays.released);
    case 2: return atomic_load(&p->schemas_released);
    case 3: return atomic_load(&p->tasks_sent);
    case 4: return atomic_load(&p->tasks_extracted);
    case 5: return atomic_load(&p->tasks_discarded);
    case 6: return atomic_load(&p->tasks_not_extracted);
    case 7: return atomic_load(&p->request_calls);
    case 8: return atomic_load(&p->requests_in_callback);
    case 9: return atomic_load(&p->cancel_calls);
    case 10: return atomic_load(&p->calls_after_release);
    case 11: return atomic_load(&p->on_schema_rc);
    case 12: return atomic_load(&p->on_next_task_rc);
    case 13: return atomic_load(&p->released);
    case 14: return atomic_load(&p->ended);
    case 15: return atomic_load(&p->errors_sent);
    default: return -1;
  }
}

void async_producer_free(struct async_producer* p) {
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p);
}
