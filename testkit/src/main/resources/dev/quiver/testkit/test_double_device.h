/*
 * Test double device model, shared by the vendor-API test doubles (fake CUDA driver, fake HIP, fake Level
 * Zero). It is NOT a driver and proves nothing about hardware: host memory stands in for device memory,
 * and queues defer their work until someone waits, so that a backend that forgets to synchronise reads
 * stale bytes and fails its tests.
 *
 * - Memory: allocations are tracked with their kind and size. Device-kind allocations are handed out as
 *   tagged addresses that the host cannot dereference (bit 62 set: a non-canonical address faults), so a
 *   backend that treats device memory as host memory crashes instead of passing. Host- and shared-kind
 *   allocations are plain host addresses. Every copy is bounds-checked against the allocation it touches.
 *   Device-kind allocations live in a memfd, so that another process maps the same bytes from an IPC
 *   handle (td_ipc_export names the exporter's pid and fd; td_ipc_open maps /proc/<pid>/fd/<fd>).
 * - Queues: in-order lists of copies and event waits. Nothing runs when it is enqueued; a queue runs when
 *   it is finished, when an event recorded on it is waited for, or one step per event query.
 * - Events: mark a position in a queue; complete once the queue has run past it.
 * - Inter-process events (td_event_create_shared): the event's completion also lives in a one-page memfd
 *   that another process maps from the event's handle (td_event_export names the exporter's pid, the page's
 *   fd and a random nonce the page holds). Each record, in either process, counts one more record on the
 *   page and enqueues a step that marks that record complete when the queue runs past it. A query in the
 *   other process says not ready until the owner's queue ran past the latest record; a synchronize or a
 *   queue's wait there polls the page, as a device completes the owner's work on its own, and gives up
 *   with TD_NOT_READY after TD_SHARED_WAIT_SECONDS (so that a test that never completes the owner's work
 *   fails instead of hanging), or with TD_INVALID_HANDLE once the exporting process is gone.
 * All functions are thread-safe (one lock; polling a shared event holds it).
 */
#ifndef QUIVER_TEST_DOUBLE_DEVICE_H
#define QUIVER_TEST_DOUBLE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

enum td_kind { TD_DEVICE = 1, TD_HOST = 2, TD_SHARED = 3 };

enum td_status {
  TD_OK = 0,
  TD_INVALID_VALUE = 1,     /* NULL or out-of-bounds pointer, zero or bad size, wrong kind */
  TD_OUT_OF_MEMORY = 2,
  TD_NOT_READY = 3,         /* an event query before the queue ran past the event */
  TD_INVALID_HANDLE = 4,    /* a queue or event that is not live */
  TD_INVALID_CONTEXT = 5    /* an inter-process event handle opened in the process that exported it */
};

struct td_queue;
struct td_event;

/* Memory. */
int td_alloc(int kind, int device, size_t size, size_t alignment, uintptr_t* out);
int td_free(int kind, uintptr_t pointer);
/* The host address behind [pointer, pointer + size) of one live allocation, or NULL. */
void* td_resolve(uintptr_t pointer, size_t size);
/* Finds the live allocation containing pointer: TD_OK and its kind and device, or TD_INVALID_VALUE. */
int td_describe(uintptr_t pointer, int* kind, int* device);

/* The live allocation containing pointer: TD_OK and its start and size, or TD_INVALID_VALUE. */
int td_range(uintptr_t pointer, uintptr_t* base, size_t* size);

/* Inter-process handles, TD_IPC_HANDLE_SIZE bytes (the size of the CUDA, HIP and Level Zero handles). */
#define TD_IPC_HANDLE_SIZE 64
/* Writes the handle of the device allocation starting at pointer; TD_INVALID_VALUE for any other pointer. */
int td_ipc_export(uintptr_t pointer, void* handle);
/* Maps another process's exported allocation: TD_INVALID_VALUE for bytes that are no handle,
 * TD_INVALID_HANDLE for a handle of this process or of memory that is gone. */
int td_ipc_open(const void* handle, uintptr_t* out);
/* Unmaps what td_ipc_open mapped (the exporter's allocation stays). */
int td_ipc_close(uintptr_t pointer);

/* Queues. */
struct td_queue* td_queue_create(int device);
int td_queue_live(const struct td_queue* queue);
int td_queue_device(const struct td_queue* queue);
/* Copies n bytes from host address src to host address dst when the queue runs. */
int td_enqueue_copy(struct td_queue* queue, void* dst, const void* src, size_t n);
/* Makes later work on queue wait until event completes. */
int td_enqueue_wait(struct td_queue* queue, struct td_event* event);
/* Runs everything enqueued so far. */
int td_queue_finish(struct td_queue* queue);
/* Runs every live queue of device except one (NULL for all): CUDA's legacy default stream rule. */
void td_finish_device(int device, const struct td_queue* except);
/* TD_OK if everything enqueued has run, else TD_NOT_READY after running one step; TD_INVALID_HANDLE if not live. */
int td_queue_query(struct td_queue* queue);
/* Runs and frees the queue. */
int td_queue_destroy(struct td_queue* queue);

/* Events. */
struct td_event* td_event_create(void);
int td_event_live(const struct td_event* event);
int td_event_record(struct td_event* event, struct td_queue* queue);
int td_event_query(struct td_event* event);
int td_event_synchronize(struct td_event* event);
int td_event_destroy(struct td_event* event);

/* Inter-process events, TD_IPC_EVENT_HANDLE_SIZE bytes (the size of the CUDA and HIP event handles). */
#define TD_IPC_EVENT_HANDLE_SIZE 64
#define TD_SHARED_WAIT_SECONDS 30
/* A new event whose completion another process can see; NULL if out of memory. */
struct td_event* td_event_create_shared(void);
/* Writes the handle of a live shared event: TD_INVALID_VALUE for an event made without sharing,
 * TD_INVALID_HANDLE for one that is not live. */
int td_event_export(struct td_event* event, void* handle);
/* Opens another process's shared event as a live event of this process (destroyed with td_event_destroy,
 * which leaves the exporter's event alone): TD_INVALID_VALUE for bytes that are no handle, TD_INVALID_CONTEXT
 * for a handle of this process, TD_INVALID_HANDLE for an exporter or event that is gone. */
int td_event_open(const void* handle, struct td_event** out);

/* Counters for tests. */
long td_live_allocations(void);
long td_live_queues(void);
long td_live_events(void);
long td_executed_copies(void);

#endif
