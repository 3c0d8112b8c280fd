/*
 * Test double device model, its queues and events: see test_double_device.h. Host memory only; never a claim about
 * hardware. Memory and its inter-process handles are in test_double_device.c.
 */
#define _GNU_SOURCE /* memfd_create */
#include "test_double_device.h"
#include "test_double_shared.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* ---- queues and events ------------------------------------------------------------------------- */

/* The completion of an inter-process event, in a page of a memfd that every process using the event maps. */
struct shared_page {
  uint32_t magic;
  uint32_t unused;
  uint64_t nonce;     /* as in the event's handle, so that a handle naming another file is refused */
  uint64_t recorded;  /* records made so far, in any process */
  uint64_t completed; /* the latest record a queue ran past */
};

#define SHARED_PAGE_SIZE 4096
#define EVENT_MAGIC 0x51544445u /* "QTDE" */

/* One process's mapping of a shared page: held by the event and by every enqueued step that uses it. */
struct shared_state {
  struct shared_page* page;
  int fd; /* the exporter's memfd, -1 where the page was opened from a handle */
  long refs;
};

enum op_type { OP_COPY, OP_WAIT, OP_SIGNAL };

struct op {
  struct op* next;
  int type;
  void* dst;
  const void* src;
  size_t n;
  struct td_queue* wait_queue; /* OP_WAIT: run this queue up to wait_position */
  uint64_t wait_position;
  struct shared_state* shared; /* OP_WAIT of a shared event: wait for record `sequence`; OP_SIGNAL: mark it */
  uint64_t sequence;
  int32_t exporter;            /* OP_WAIT: the exporting process of an opened event, else 0 */
};

struct td_queue {
  struct td_queue* next_live;
  int device;
  struct op* head;
  struct op* tail;
  uint64_t enqueued;
  uint64_t completed;
};

struct td_event {
  struct td_event* next_live;
  struct td_queue* queue; /* NULL: never recorded, or its queue is gone (complete) */
  uint64_t position;
  struct shared_state* shared; /* an inter-process event, else NULL */
  int32_t exporter;            /* opened from another process's handle: that process, else 0 */
};

static struct td_queue* queues;
static struct td_event* events;
static long live_queues;
static long live_events;

static int queue_live_locked(const struct td_queue* queue) {
  for (struct td_queue* q = queues; q != NULL; q = q->next_live) {
    if (q == queue) return 1;
  }
  return 0;
}

static int event_live_locked(const struct td_event* event) {
  for (struct td_event* e = events; e != NULL; e = e->next_live) {
    if (e == event) return 1;
  }
  return 0;
}

static void run_until_locked(struct td_queue* queue, uint64_t position);

static void unref_shared_locked(struct shared_state* shared) {
  if (--shared->refs > 0) return;
  munmap(shared->page, SHARED_PAGE_SIZE);
  if (shared->fd >= 0) close(shared->fd);
  free(shared);
}

/* Waits until record `sequence` of a shared event completed, polling its page with the lock held (the work
 * that completes it runs in another process): TD_OK, TD_INVALID_HANDLE once the exporter is gone, or
 * TD_NOT_READY after TD_SHARED_WAIT_SECONDS. */
static int wait_shared_locked(const struct shared_state* shared, uint64_t sequence, int32_t exporter) {
  for (long waited_ms = 0;; waited_ms++) {
    if (__atomic_load_n(&shared->page->completed, __ATOMIC_ACQUIRE) >= sequence) return TD_OK;
    if (exporter > 0 && kill(exporter, 0) != 0 && errno == ESRCH) return TD_INVALID_HANDLE;
    if (waited_ms >= TD_SHARED_WAIT_SECONDS * 1000L) return TD_NOT_READY;
    struct timespec millisecond = {0, 1000000};
    nanosleep(&millisecond, NULL);
  }
}

static void step_locked(struct td_queue* queue) {
  struct op* op = queue->head;
  queue->head = op->next;
  if (queue->head == NULL) queue->tail = NULL;
  if (op->type == OP_COPY) {
    memmove(op->dst, op->src, op->n);
    td_executed_copies_count++;
  } else if (op->type == OP_SIGNAL) {
    uint64_t* completed = &op->shared->page->completed;
    uint64_t seen = __atomic_load_n(completed, __ATOMIC_ACQUIRE);
    while (seen < op->sequence &&
           !__atomic_compare_exchange_n(completed, &seen, op->sequence, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
    }
  } else {
    if (queue_live_locked(op->wait_queue)) run_until_locked(op->wait_queue, op->wait_position);
    if (op->shared != NULL) wait_shared_locked(op->shared, op->sequence, op->exporter);
  }
  if (op->shared != NULL) unref_shared_locked(op->shared);
  queue->completed++;
  free(op);
}

static void run_until_locked(struct td_queue* queue, uint64_t position) {
  while (queue->completed < position && queue->head != NULL) step_locked(queue);
}

static int enqueue_locked(struct td_queue* queue, struct op* op) {
  if (!queue_live_locked(queue)) {
    free(op);
    return TD_INVALID_HANDLE;
  }
  op->next = NULL;
  if (queue->tail == NULL) queue->head = op; else queue->tail->next = op;
  queue->tail = op;
  queue->enqueued++;
  return TD_OK;
}

struct td_queue* td_queue_create(int device) {
  struct td_queue* q = calloc(1, sizeof *q);
  if (q == NULL) return NULL;
  q->device = device;
  pthread_mutex_lock(&td_lock);
  q->next_live = queues;
  queues = q;
  live_queues++;
  pthread_mutex_unlock(&td_lock);
  return q;
}

int td_queue_live(const struct td_queue* queue) {
  pthread_mutex_lock(&td_lock);
  int live = queue_live_locked(queue);
  pthread_mutex_unlock(&td_lock);
  return live;
}

int td_queue_device(const struct td_queue* queue) {
  return queue->device;
}

int td_enqueue_copy(struct td_queue* queue, void* dst, const void* src, size_t n) {
  if (dst == NULL || src == NULL) return TD_INVALID_VALUE;
  struct op* op = calloc(1, sizeof *op);
  if (op == NULL) return TD_OUT_OF_MEMORY;
  op->type = OP_COPY;
  op->dst = dst;
  op->src = src;
  op->n = n;
  pthread_mutex_lock(&td_lock);
  int status = enqueue_locked(queue, op);
  pthread_mutex_unlock(&td_lock);
  return status;
}

int td_enqueue_wait(struct td_queue* queue, struct td_event* event) {
  struct op* op = calloc(1, sizeof *op);
  if (op == NULL) return TD_OUT_OF_MEMORY;
  op->type = OP_WAIT;
  pthread_mutex_lock(&td_lock);
  if (!event_live_locked(event)) {
    pthread_mutex_unlock(&td_lock);
    free(op);
    return TD_INVALID_HANDLE;
  }
  op->wait_queue = event->queue;
  op->wait_position = event->position;
  if (event->shared != NULL) {
    op->shared = event->shared;
    op->shared->refs++;
    op->sequence = __atomic_load_n(&event->shared->page->recorded, __ATOMIC_ACQUIRE);
    op->exporter = event->exporter;
  }
  int status = enqueue_locked(queue, op);
  pthread_mutex_unlock(&td_lock);
  return status;
}

int td_queue_finish(struct td_queue* queue) {
  pthread_mutex_lock(&td_lock);
  int live = queue_live_locked(queue);
  if (live) run_until_locked(queue, queue->enqueued);
  pthread_mutex_unlock(&td_lock);
  return live ? TD_OK : TD_INVALID_HANDLE;
}

void td_finish_device(int device, const struct td_queue* except) {
  pthread_mutex_lock(&td_lock);
  for (struct td_queue* q = queues; q != NULL; q = q->next_live) {
    if (q != except && q->device == device) run_until_locked(q, q->enqueued);
  }
  pthread_mutex_unlock(&td_lock);
}

int td_queue_query(struct td_queue* queue) {
  pthread_mutex_lock(&td_lock);
  int status = TD_OK;
  if (!queue_live_locked(queue)) {
    status = TD_INVALID_HANDLE;
  } else if (queue->head != NULL) {
    step_locked(queue); /* as for events: one step of progress per poll */
    status = TD_NOT_READY;
  }
  pthread_mutex_unlock(&td_lock);
  return status;
}

int td_queue_destroy(struct td_queue* queue) {
  pthread_mutex_lock(&td_lock);
  if (!queue_live_locked(queue)) {
    pthread_mutex_unlock(&td_lock);
    return TD_INVALID_HANDLE;
  }
  run_until_locked(queue, queue->enqueued);
  for (struct td_queue** at = &queues; *at != NULL; at = &(*at)->next_live) {
    if (*at == queue) {
      *at = queue->next_live;
      break;
    }
  }
  for (struct td_event* e = events; e != NULL; e = e->next_live) {
    if (e->queue == queue) e->queue = NULL;
  }
  live_queues--;
  pthread_mutex_unlock(&td_lock);
  free(queue);
  return TD_OK;
}

/* A new live event, sharing `shared` (whose reference it takes) unless it is NULL; NULL if out of memory. */
static struct td_event* link_event(struct shared_state* shared, int32_t exporter) {
  struct td_event* e = calloc(1, sizeof *e);
  if (e == NULL) return NULL;
  e->shared = shared;
  e->exporter = exporter;
  pthread_mutex_lock(&td_lock);
  e->next_live = events;
  events = e;
  live_events++;
  pthread_mutex_unlock(&td_lock);
  return e;
}

struct td_event* td_event_create(void) {
  return link_event(NULL, 0);
}

int td_event_live(const struct td_event* event) {
  pthread_mutex_lock(&td_lock);
  int live = event_live_locked(event);
  pthread_mutex_unlock(&td_lock);
  return live;
}

int td_event_record(struct td_event* event, struct td_queue* queue) {
  struct op* signal = calloc(1, sizeof *signal); /* used by shared events only */
  if (signal == NULL) return TD_OUT_OF_MEMORY;
  signal->type = OP_SIGNAL;
  pthread_mutex_lock(&td_lock);
  int status = !event_live_locked(event) || !queue_live_locked(queue) ? TD_INVALID_HANDLE : TD_OK;
  if (status == TD_OK && event->shared != NULL) {
    signal->shared = event->shared;
    signal->sequence = __atomic_add_fetch(&event->shared->page->recorded, 1, __ATOMIC_ACQ_REL);
    event->shared->refs++;
    status = enqueue_locked(queue, signal);
    signal = NULL;
  }
  if (status == TD_OK) {
    event->queue = queue;
    event->position = queue->enqueued;
  }
  pthread_mutex_unlock(&td_lock);
  free(signal);
  return status;
}

int td_event_query(struct td_event* event) {
  pthread_mutex_lock(&td_lock);
  int status = TD_OK;
  if (!event_live_locked(event)) {
    status = TD_INVALID_HANDLE;
  } else if (event->queue != NULL && event->queue->completed < event->position) {
    step_locked(event->queue); /* the "device" makes progress each time someone polls */
    status = TD_NOT_READY;
  } else if (event->shared != NULL && __atomic_load_n(&event->shared->page->completed, __ATOMIC_ACQUIRE)
                                          < __atomic_load_n(&event->shared->page->recorded, __ATOMIC_ACQUIRE)) {
    status = TD_NOT_READY; /* recorded in another process, which has not run past it yet */
  }
  pthread_mutex_unlock(&td_lock);
  return status;
}

int td_event_synchronize(struct td_event* event) {
  pthread_mutex_lock(&td_lock);
  int status = event_live_locked(event) ? TD_OK : TD_INVALID_HANDLE;
  if (status == TD_OK && event->queue != NULL) run_until_locked(event->queue, event->position);
  if (status == TD_OK && event->shared != NULL) {
    status = wait_shared_locked(event->shared, __atomic_load_n(&event->shared->page->recorded, __ATOMIC_ACQUIRE),
                                event->exporter);
  }
  pthread_mutex_unlock(&td_lock);
  return status;
}

int td_event_destroy(struct td_event* event) {
  pthread_mutex_lock(&td_lock);
  for (struct td_event** at = &events; *at != NULL; at = &(*at)->next_live) {
    if (*at == event) {
      *at = event->next_live;
      live_events--;
      if (event->shared != NULL) unref_shared_locked(event->shared);
      pthread_mutex_unlock(&td_lock);
      free(event);
      return TD_OK;
    }
  }
  pthread_mutex_unlock(&td_lock);
  return TD_INVALID_HANDLE;
}

/* ---- inter-process events --------------------------------------------------------------------- */

struct ipc_event_handle {
  struct peer_file file;
  uint32_t unused;
  uint64_t nonce;
  char reserved[TD_IPC_EVENT_HANDLE_SIZE - 24];
};
_Static_assert(sizeof(struct ipc_event_handle) == TD_IPC_EVENT_HANDLE_SIZE, "an event handle is TD_IPC_EVENT_HANDLE_SIZE bytes");

struct td_event* td_event_create_shared(void) {
  struct shared_state* shared = calloc(1, sizeof *shared);
  int fd = memfd_create("quiver-test-double-event", MFD_CLOEXEC);
  void* page = MAP_FAILED;
  if (fd >= 0 && ftruncate(fd, SHARED_PAGE_SIZE) == 0) {
    page = mmap(NULL, SHARED_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  uint64_t nonce = 0;
  if (shared == NULL || page == MAP_FAILED || getrandom(&nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) {
    if (page != MAP_FAILED) munmap(page, SHARED_PAGE_SIZE);
    if (fd >= 0) close(fd);
    free(shared);
    return NULL;
  }
  shared->page = page;
  shared->page->magic = EVENT_MAGIC;
  shared->page->nonce = nonce;
  shared->fd = fd;
  shared->refs = 1;
  struct td_event* e = link_event(shared, 0);
  if (e == NULL) {
    munmap(page, SHARED_PAGE_SIZE);
    close(fd);
    free(shared);
  }
  return e;
}

int td_event_export(struct td_event* event, void* handle) {
  struct ipc_event_handle h;
  memset(&h, 0, sizeof h);
  pthread_mutex_lock(&td_lock);
  int status = TD_OK;
  if (!event_live_locked(event)) {
    status = TD_INVALID_HANDLE;
  } else if (event->shared == NULL || event->exporter != 0) {
    status = TD_INVALID_VALUE; /* made without sharing, or itself opened from another process */
  } else {
    td_name_peer_file(&h.file, EVENT_MAGIC, event->shared->fd);
    h.nonce = event->shared->page->nonce;
  }
  pthread_mutex_unlock(&td_lock);
  if (status == TD_OK) memcpy(handle, &h, sizeof h);
  return status;
}

int td_event_open(const void* handle, struct td_event** out) {
  struct ipc_event_handle h;
  memcpy(&h, handle, sizeof h);
  int status = out == NULL ? TD_INVALID_VALUE : td_check_peer_file(&h.file, EVENT_MAGIC, TD_INVALID_CONTEXT);
  if (status != TD_OK) return status;
  struct shared_page* page = td_map_peer_file(&h.file, SHARED_PAGE_SIZE);
  if (page == MAP_FAILED) return TD_INVALID_HANDLE;
  if (page->magic != EVENT_MAGIC || page->nonce != h.nonce) {
    munmap(page, SHARED_PAGE_SIZE);
    return TD_INVALID_HANDLE;
  }
  struct shared_state* shared = calloc(1, sizeof *shared);
  struct td_event* e = NULL;
  if (shared != NULL) {
    shared->page = page;
    shared->fd = -1;
    shared->refs = 1;
    e = link_event(shared, h.file.pid);
  }
  if (e == NULL) {
    munmap(page, SHARED_PAGE_SIZE);
    free(shared);
    return TD_OUT_OF_MEMORY;
  }
  *out = e;
  return TD_OK;
}

TD_COUNTER(td_live_queues, live_queues)
TD_COUNTER(td_live_events, live_events)
