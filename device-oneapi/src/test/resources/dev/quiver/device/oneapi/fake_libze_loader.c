/*
 * Test double of the Level Zero loader (libze_loader.so.1), for tests only. It proves nothing about Intel
 * or any other Level Zero hardware: it lets the oneAPI backend's own code paths run here, against the API
 * exactly as ze_api.h declares it (every function below is defined against that declaration). Host memory
 * stands in for the device (see test_double_device.h); IPC handles are the device model's (a memfd the peer
 * maps), and opening one in the exporting process fails. One driver with two GPU devices.
 *
 * Stricter than needed on purpose: every call fails with ZE_RESULT_ERROR_UNINITIALIZED before zeInit;
 * descriptors with the wrong stype fail with ZE_RESULT_ERROR_INVALID_ENUMERATION; copies accept only USM
 * allocations of the context (never ordinary host memory) and fail outside them with
 * ZE_RESULT_ERROR_INVALID_ARGUMENT; waiting on an event that nothing will signal fails with
 * ZE_RESULT_NOT_READY instead of hanging.
 */
#include <level_zero/ze_api.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_double_device.h"

#define DEVICES 2
/* How many of them zeDeviceGet reports: compiled with -DDEVICES_FOUND=0, a driver without devices. */
#ifndef DEVICES_FOUND
#define DEVICES_FOUND DEVICES
#endif
#define MAGIC_DRIVER 0x5a45445256ULL

struct _ze_driver_handle_t { uint64_t magic; };
struct _ze_device_handle_t { int index; };
struct _ze_context_handle_t { int live; };
struct _ze_command_list_handle_t { struct td_queue* queue; };
struct _ze_event_pool_handle_t { uint32_t count; unsigned char* used; };
struct _ze_event_handle_t { struct td_event* td; ze_event_pool_handle_t pool; uint32_t index; int signalled; };

static int initialized;
static struct _ze_driver_handle_t driver = {MAGIC_DRIVER};
static struct _ze_device_handle_t devices[DEVICES] = {{0}, {1}};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long live_lists, live_events, live_pools, live_contexts;

#define REQUIRE_INIT() do { if (!initialized) return ZE_RESULT_ERROR_UNINITIALIZED; } while (0)
#define REQUIRE_STYPE(desc, type) do { if ((desc) == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER; \
    if ((desc)->stype != (type)) return ZE_RESULT_ERROR_INVALID_ENUMERATION; } while (0)

static ze_result_t status(int td) {
  switch (td) {
    case TD_OK: return ZE_RESULT_SUCCESS;
    case TD_OUT_OF_MEMORY: return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    case TD_NOT_READY: return ZE_RESULT_NOT_READY;
    case TD_INVALID_HANDLE: return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    default: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
}

static int device_index(ze_device_handle_t device) {
  for (int i = 0; i < DEVICES; i++) {
    if (device == &devices[i]) return i;
  }
  return -1;
}

/* Writes count handles, Level Zero style: with NULL only the count, else at most *count. */
static ze_result_t enumerate(uint32_t* count, void** out, void* items, size_t item_size, uint32_t total) {
  if (count == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (out == NULL || *count == 0) {
    *count = total;
    return ZE_RESULT_SUCCESS;
  }
  if (*count > total) *count = total;
  for (uint32_t i = 0; i < *count; i++) out[i] = (char*)items + i * item_size;
  return ZE_RESULT_SUCCESS;
}

/* ---- drivers, devices, contexts ---------------------------------------------------------------- */

ze_result_t zeInit(ze_init_flags_t flags) {
  if ((flags & ~(ze_init_flags_t)ZE_INIT_FLAG_GPU_ONLY) != 0) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  initialized = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGet(uint32_t* count, ze_driver_handle_t* drivers) {
  REQUIRE_INIT();
  return enumerate(count, (void**)drivers, &driver, sizeof driver, 1);
}

ze_result_t zeDeviceGet(ze_driver_handle_t handle, uint32_t* count, ze_device_handle_t* out) {
  REQUIRE_INIT();
  if (handle != &driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return enumerate(count, (void**)out, devices, sizeof devices[0], DEVICES_FOUND);
}

ze_result_t zeDeviceGetProperties(ze_device_handle_t device, ze_device_properties_t* properties) {
  REQUIRE_INIT();
  if (device_index(device) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  REQUIRE_STYPE(properties, ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
  properties->type = ZE_DEVICE_TYPE_GPU;
  properties->vendorId = 0x8086;
  properties->deviceId = 0x1000 + (uint32_t)device_index(device);
  properties->maxMemAllocSize = (uint64_t)1 << 30;
  strncpy(properties->name, "Level Zero test double (host memory)", ZE_MAX_DEVICE_NAME - 1);
  properties->name[ZE_MAX_DEVICE_NAME - 1] = '\0';
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t device, uint32_t* count, ze_device_memory_properties_t* properties) {
  REQUIRE_INIT();
  if (device_index(device) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (properties == NULL || *count == 0) {
    *count = 2;
    return ZE_RESULT_SUCCESS;
  }
  uint32_t n = *count < 2 ? *count : 2;
  for (uint32_t i = 0; i < n; i++) {
    REQUIRE_STYPE(&properties[i], ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES);
    properties[i].totalSize = (uint64_t)(i + 1) << 30; /* 1 GiB + 2 GiB */
  }
  *count = n;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextCreate(ze_driver_handle_t handle, const ze_context_desc_t* desc, ze_context_handle_t* context) {
  REQUIRE_INIT();
  if (handle != &driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  REQUIRE_STYPE(desc, ZE_STRUCTURE_TYPE_CONTEXT_DESC);
  if (context == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *context = calloc(1, sizeof **context);
  (*context)->live = 1;
  pthread_mutex_lock(&lock);
  live_contexts++;
  pthread_mutex_unlock(&lock);
  return ZE_RESULT_SUCCESS;
}

/* ---- immediate command lists ------------------------------------------------------------------- */

ze_result_t zeCommandListCreateImmediate(ze_context_handle_t context, ze_device_handle_t device,
                                         const ze_command_queue_desc_t* desc, ze_command_list_handle_t* list) {
  REQUIRE_INIT();
  if (context == NULL || !context->live || device_index(device) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  REQUIRE_STYPE(desc, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
  if (desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (list == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  struct _ze_command_list_handle_t* l = calloc(1, sizeof *l);
  l->queue = td_queue_create(device_index(device));
  *list = l;
  pthread_mutex_lock(&lock);
  live_lists++;
  pthread_mutex_unlock(&lock);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListDestroy(ze_command_list_handle_t list) {
  REQUIRE_INIT();
  if (list == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  ze_result_t r = status(td_queue_destroy(list->queue));
  if (r == ZE_RESULT_SUCCESS) {
    free(list);
    pthread_mutex_lock(&lock);
    live_lists--;
    pthread_mutex_unlock(&lock);
  }
  return r;
}

static ze_result_t signal_and_waits(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t waits, ze_event_handle_t* wait) {
  for (uint32_t i = 0; i < waits; i++) {
    if (wait == NULL || wait[i] == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    ze_result_t r = status(td_enqueue_wait(list->queue, wait[i]->td));
    if (r != ZE_RESULT_SUCCESS) return r;
  }
  if (signal != NULL) {
    ze_result_t r = status(td_event_record(signal->td, list->queue));
    if (r != ZE_RESULT_SUCCESS) return r;
    signal->signalled = 1;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t list, void* dst, const void* src, size_t size,
                                          ze_event_handle_t signal, uint32_t waits, ze_event_handle_t* wait) {
  REQUIRE_INIT();
  if (list == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == NULL || src == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  void* to = td_resolve((uintptr_t)dst, size);
  const void* from = td_resolve((uintptr_t)src, size);
  if (to == NULL || from == NULL) return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* USM of this context only */
  ze_result_t r = status(td_enqueue_copy(list->queue, to, from, size));
  return r != ZE_RESULT_SUCCESS ? r : signal_and_waits(list, signal, waits, wait);
}

ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t waits, ze_event_handle_t* wait) {
  REQUIRE_INIT();
  if (list == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return signal_and_waits(list, signal, waits, wait); /* the test double's queues run in order */
}

/* ---- unified shared memory --------------------------------------------------------------------- */

static ze_result_t allocate(int kind, ze_context_handle_t context, size_t size, size_t alignment, int device, void** out) {
  REQUIRE_INIT();
  if (context == NULL || !context->live) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  uintptr_t p = 0;
  ze_result_t r = status(td_alloc(kind, device, size, alignment == 0 ? 64 : alignment, &p));
  *out = (void*)p;
  return r;
}

ze_result_t zeMemAllocDevice(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* desc, size_t size, size_t alignment,
                             ze_device_handle_t device, void** out) {
  REQUIRE_STYPE(desc, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
  if (device_index(device) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate(TD_DEVICE, context, size, alignment, device_index(device), out);
}

ze_result_t zeMemAllocHost(ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc, size_t size, size_t alignment, void** out) {
  REQUIRE_STYPE(desc, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  return allocate(TD_HOST, context, size, alignment, -1, out);
}

ze_result_t zeMemAllocShared(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* device_desc,
                             const ze_host_mem_alloc_desc_t* host_desc, size_t size, size_t alignment,
                             ze_device_handle_t device, void** out) {
  REQUIRE_STYPE(device_desc, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
  REQUIRE_STYPE(host_desc, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  if (device != NULL && device_index(device) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate(TD_SHARED, context, size, alignment, device == NULL ? -1 : device_index(device), out);
}

ze_result_t zeMemFree(ze_context_handle_t context, void* pointer) {
  REQUIRE_INIT();
  if (context == NULL || !context->live) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  int kind, device;
  if (td_describe((uintptr_t)pointer, &kind, &device) != TD_OK) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return status(td_free(kind, (uintptr_t)pointer));
}

/* ---- inter-process memory: the device model's memfd allocations, mapped by the peer ---------------- */

ze_result_t zeMemGetAddressRange(ze_context_handle_t context, const void* pointer, void** base, size_t* size) {
  REQUIRE_INIT();
  if (context == NULL || !context->live) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  uintptr_t start = 0;
  size_t bytes = 0;
  if (td_range((uintptr_t)pointer, &start, &bytes) != TD_OK) return ZE_RESULT_ERROR_NOT_AVAILABLE;
  if (base != NULL) *base = (void*)start;
  if (size != NULL) *size = bytes;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemGetIpcHandle(ze_context_handle_t context, const void* pointer, ze_ipc_mem_handle_t* handle) {
  REQUIRE_INIT();
  if (context == NULL || !context->live) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (handle == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return status(td_ipc_export((uintptr_t)pointer, handle->data));
}

ze_result_t zeMemOpenIpcHandle(ze_context_handle_t context, ze_device_handle_t device, ze_ipc_mem_handle_t handle,
                               ze_ipc_memory_flags_t flags, void** pointer) {
  REQUIRE_INIT();
  if (context == NULL || !context->live || device_index(device) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pointer == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if ((flags & ~(ZE_IPC_MEMORY_FLAG_BIAS_CACHED | ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED)) != 0) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  uintptr_t opened = 0;
  ze_result_t r = status(td_ipc_open(handle.data, &opened));
  if (r == ZE_RESULT_SUCCESS) *pointer = (void*)opened;
  return r;
}

ze_result_t zeMemCloseIpcHandle(ze_context_handle_t context, const void* pointer) {
  REQUIRE_INIT();
  if (context == NULL || !context->live) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return status(td_ipc_close((uintptr_t)pointer));
}

/* ---- events ------------------------------------------------------------------------------------ */

ze_result_t zeEventPoolCreate(ze_context_handle_t context, const ze_event_pool_desc_t* desc, uint32_t device_count,
                              ze_device_handle_t* device_handles, ze_event_pool_handle_t* pool) {
  REQUIRE_INIT();
  if (context == NULL || !context->live) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  REQUIRE_STYPE(desc, ZE_STRUCTURE_TYPE_EVENT_POOL_DESC);
  if (desc->count == 0 || pool == NULL) return ZE_RESULT_ERROR_INVALID_SIZE;
  for (uint32_t i = 0; i < device_count; i++) {
    if (device_handles == NULL || device_index(device_handles[i]) < 0) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  }
  struct _ze_event_pool_handle_t* p = calloc(1, sizeof *p);
  p->count = desc->count;
  p->used = calloc(desc->count, 1);
  *pool = p;
  pthread_mutex_lock(&lock);
  live_pools++;
  pthread_mutex_unlock(&lock);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventCreate(ze_event_pool_handle_t pool, const ze_event_desc_t* desc, ze_event_handle_t* event) {
  REQUIRE_INIT();
  if (pool == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  REQUIRE_STYPE(desc, ZE_STRUCTURE_TYPE_EVENT_DESC);
  if (event == NULL) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  pthread_mutex_lock(&lock);
  int taken = desc->index >= pool->count || pool->used[desc->index];
  if (!taken) {
    pool->used[desc->index] = 1;
    live_events++;
  }
  pthread_mutex_unlock(&lock);
  if (taken) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  struct _ze_event_handle_t* e = calloc(1, sizeof *e);
  e->td = td_event_create();
  e->pool = pool;
  e->index = desc->index;
  *event = e;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventDestroy(ze_event_handle_t event) {
  REQUIRE_INIT();
  if (event == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  ze_result_t r = status(td_event_destroy(event->td));
  if (r != ZE_RESULT_SUCCESS) return r;
  pthread_mutex_lock(&lock);
  event->pool->used[event->index] = 0;
  live_events--;
  pthread_mutex_unlock(&lock);
  free(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout) {
  REQUIRE_INIT();
  if (event == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!event->signalled) return ZE_RESULT_NOT_READY; /* nothing will signal it: a real driver would wait forever */
  return timeout == 0 ? status(td_event_query(event->td)) : status(td_event_synchronize(event->td));
}

ze_result_t zeEventHostReset(ze_event_handle_t event) {
  REQUIRE_INIT();
  if (event == NULL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  event->signalled = 0;
  return ZE_RESULT_SUCCESS;
}

/* ---- control functions of the test double (not Level Zero entry points) ------------------------ */

long test_double_live_allocations(void) { return td_live_allocations(); }
long test_double_live_streams(void) { pthread_mutex_lock(&lock); long n = live_lists; pthread_mutex_unlock(&lock); return n; }
long test_double_live_events(void) { pthread_mutex_lock(&lock); long n = live_events; pthread_mutex_unlock(&lock); return n; }
long test_double_live_contexts(void) { pthread_mutex_lock(&lock); long n = live_contexts; pthread_mutex_unlock(&lock); return n; }
long test_double_executed_copies(void) { return td_executed_copies(); }
