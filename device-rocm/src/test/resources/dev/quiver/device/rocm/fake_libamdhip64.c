/*
 * Test double of AMD's HIP runtime (libamdhip64), for tests only. It proves nothing about AMD hardware: it
 * lets the ROCm backend's own code paths run here, against the API exactly as hip_runtime_api.h declares it
 * (every function below is defined against that declaration, so a signature that differs does not compile).
 * Host memory stands in for the device (see test_double_device.h); the memory types reported are ROCm 5's,
 * as the installed headers are.
 *
 * Stricter than needed on purpose: work on a stream fails with hipErrorInvalidDevice unless the stream's
 * device is current, copies outside an allocation or against their hipMemcpyKind fail with
 * hipErrorInvalidValue.
 *
 * IPC handles are the device model's: hipMalloc memory lives in a memfd that another process maps from the
 * handle; opening a handle in the exporting process fails, as with the runtime. Events made with
 * hipEventInterprocess keep their completion in a memfd page that the process opening their handle maps, so
 * that a child process sees the owner's record complete only once the owner's stream ran past it; handle
 * bytes the double never made fail with hipErrorInvalidValue, a handle opened in the exporting process with
 * hipErrorInvalidContext (as hip_runtime_api.h documents).
 */
#include <hip/hip_runtime_api.h>

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "test_double_device.h"

#define DEVICES 2

static struct td_queue* null_streams[DEVICES];
static _Thread_local int current_device;
static int device_switches;

static hipError_t status(int td) {
  switch (td) {
    case TD_OK: return hipSuccess;
    case TD_OUT_OF_MEMORY: return hipErrorOutOfMemory;
    case TD_NOT_READY: return hipErrorNotReady;
    case TD_INVALID_HANDLE: return hipErrorInvalidHandle;
    case TD_INVALID_CONTEXT: return hipErrorInvalidContext;
    default: return hipErrorInvalidValue;
  }
}

static void create_null_streams(void) {
  for (int i = 0; i < DEVICES; i++) null_streams[i] = td_queue_create(i);
}

static void start(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, create_null_streams);
}

/* The queue of a stream of the current device; NULL is the device's null stream. */
static hipError_t queue_of(hipStream_t stream, struct td_queue** queue) {
  start();
  if (stream == NULL) {
    td_finish_device(current_device, null_streams[current_device]); /* the null stream waits for blocking streams */
    *queue = null_streams[current_device];
    return hipSuccess;
  }
  struct td_queue* q = (struct td_queue*)stream;
  if (!td_queue_live(q)) return hipErrorInvalidHandle;
  if (td_queue_device(q) != current_device) return hipErrorInvalidDevice;
  td_queue_finish(null_streams[current_device]);
  *queue = q;
  return hipSuccess;
}

/* ---- devices, versions, errors ----------------------------------------------------------------- */

hipError_t hipGetDeviceCount(int* count) {
  if (count == NULL) return hipErrorInvalidValue;
  *count = DEVICES;
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int* version) {
  if (version == NULL) return hipErrorInvalidValue;
  *version = 50221153; /* HIP 5.2, like the installed headers */
  return hipSuccess;
}

#define ERROR_NAMES(X) X(hipSuccess) X(hipErrorInvalidValue) X(hipErrorOutOfMemory) X(hipErrorNoDevice) \
  X(hipErrorInvalidDevice) X(hipErrorInvalidHandle) X(hipErrorNotReady) X(hipErrorInvalidContext)

const char* hipGetErrorName(hipError_t error) {
#define NAME_CASE(e) case e: return #e;
  switch (error) { ERROR_NAMES(NAME_CASE) default: return "hipErrorUnknown"; }
}

const char* hipGetErrorString(hipError_t error) {
#define TEXT_CASE(e) case e: return "test double: " #e;
  switch (error) { ERROR_NAMES(TEXT_CASE) default: return "test double: unknown error"; }
}

hipError_t hipGetDevice(int* device) {
  if (device == NULL) return hipErrorInvalidValue;
  *device = current_device;
  return hipSuccess;
}

hipError_t hipSetDevice(int device) {
  if (device < 0 || device >= DEVICES) return hipErrorInvalidDevice;
  if (device != current_device) __atomic_add_fetch(&device_switches, 1, __ATOMIC_RELAXED);
  current_device = device;
  return hipSuccess;
}

hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  if (ordinal < 0 || ordinal >= DEVICES) return hipErrorInvalidDevice;
  *device = ordinal;
  return hipSuccess;
}

hipError_t hipDeviceGetName(char* name, int length, hipDevice_t device) {
  if (device < 0 || device >= DEVICES) return hipErrorInvalidDevice;
  if (name == NULL || length <= 0) return hipErrorInvalidValue;
  strncpy(name, "HIP test double (host memory)", (size_t)length - 1);
  name[length - 1] = '\0';
  return hipSuccess;
}

hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  if (device < 0 || device >= DEVICES) return hipErrorInvalidDevice;
  *bytes = (size_t)2 << 30;
  return hipSuccess;
}

/* ---- memory ------------------------------------------------------------------------------------ */

hipError_t hipMalloc(void** pointer, size_t size) {
  if (pointer == NULL) return hipErrorInvalidValue;
  uintptr_t p = 0;
  hipError_t e = status(td_alloc(TD_DEVICE, current_device, size, 256, &p));
  *pointer = (void*)p;
  return e;
}

hipError_t hipHostMalloc(void** pointer, size_t size, unsigned int flags) {
  if (pointer == NULL || flags != hipHostMallocDefault) return hipErrorInvalidValue;
  uintptr_t p = 0;
  hipError_t e = status(td_alloc(TD_HOST, current_device, size, 256, &p));
  *pointer = (void*)p;
  return e;
}

hipError_t hipFree(void* pointer) {
  start();
  td_finish_device(current_device, NULL); /* hipFree waits for work that may use the memory */
  return status(td_free(TD_DEVICE, (uintptr_t)pointer));
}

hipError_t hipHostFree(void* pointer) {
  start();
  td_finish_device(current_device, NULL);
  return status(td_free(TD_HOST, (uintptr_t)pointer));
}

/* ---- inter-process memory: the device model's memfd allocations, mapped by the peer ---------------- */

hipError_t hipMemGetAddressRange(hipDeviceptr_t* base, size_t* size, hipDeviceptr_t pointer) {
  uintptr_t start = 0;
  size_t bytes = 0;
  if (td_range((uintptr_t)pointer, &start, &bytes) != TD_OK) return hipErrorNotFound;
  if (base != NULL) *base = (hipDeviceptr_t)start;
  if (size != NULL) *size = bytes;
  return hipSuccess;
}

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* pointer) {
  if (handle == NULL) return hipErrorInvalidValue;
  return status(td_ipc_export((uintptr_t)pointer, handle->reserved));
}

hipError_t hipIpcOpenMemHandle(void** pointer, hipIpcMemHandle_t handle, unsigned int flags) {
  if (pointer == NULL || flags != hipIpcMemLazyEnablePeerAccess) return hipErrorInvalidValue;
  uintptr_t opened = 0;
  hipError_t e = status(td_ipc_open(handle.reserved, &opened));
  if (e == hipSuccess) *pointer = (void*)opened;
  return e;
}

hipError_t hipIpcCloseMemHandle(void* pointer) {
  return status(td_ipc_close((uintptr_t)pointer));
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t size, hipMemcpyKind kind, hipStream_t stream) {
  struct td_queue* queue;
  hipError_t e = queue_of(stream, &queue);
  if (e != hipSuccess) return e;
  void* to = kind == hipMemcpyDeviceToHost ? dst : td_resolve((uintptr_t)dst, size);
  const void* from = kind == hipMemcpyHostToDevice ? src : td_resolve((uintptr_t)src, size);
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice) return hipErrorInvalidValue;
  if (to == NULL || from == NULL) return hipErrorInvalidValue;
  return status(td_enqueue_copy(queue, to, from, size));
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* pointer) {
  int kind, device;
  if (attributes == NULL || td_describe((uintptr_t)pointer, &kind, &device) != TD_OK) return hipErrorInvalidValue;
  memset(attributes, 0, sizeof *attributes);
  attributes->memoryType = kind == TD_HOST ? hipMemoryTypeHost : hipMemoryTypeDevice;
  attributes->device = device;
  attributes->isManaged = kind == TD_SHARED;
  return hipSuccess;
}

/* ---- streams ----------------------------------------------------------------------------------- */

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  if (stream == NULL || (flags != hipStreamDefault && flags != hipStreamNonBlocking)) return hipErrorInvalidValue;
  start();
  struct td_queue* queue = td_queue_create(current_device);
  if (queue == NULL) return hipErrorOutOfMemory;
  *stream = (hipStream_t)queue;
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  struct td_queue* queue;
  hipError_t e = queue_of(stream, &queue);
  return e != hipSuccess ? e : status(td_queue_finish(queue));
}

hipError_t hipStreamQuery(hipStream_t stream) {
  struct td_queue* queue;
  hipError_t e = queue_of(stream, &queue);
  return e != hipSuccess ? e : status(td_queue_query(queue));
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  if (stream == NULL) return hipErrorInvalidHandle;
  return status(td_queue_destroy((struct td_queue*)stream));
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  if (flags != 0) return hipErrorInvalidValue;
  struct td_queue* queue;
  hipError_t e = queue_of(stream, &queue);
  return e != hipSuccess ? e : status(td_enqueue_wait(queue, (struct td_event*)event));
}

/* ---- events ------------------------------------------------------------------------------------ */

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  if (event == NULL || (flags & ~(unsigned)(hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess)) != 0) {
    return hipErrorInvalidValue;
  }
  /* as with CUDA, whose semantics HIP documents: interprocess events are made without timing */
  if ((flags & hipEventInterprocess) != 0 && (flags & hipEventDisableTiming) == 0) return hipErrorInvalidValue;
  struct td_event* e = (flags & hipEventInterprocess) != 0 ? td_event_create_shared() : td_event_create();
  if (e == NULL) return hipErrorOutOfMemory;
  *event = (hipEvent_t)e;
  return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  struct td_queue* queue;
  hipError_t e = queue_of(stream, &queue);
  return e != hipSuccess ? e : status(td_event_record((struct td_event*)event, queue));
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  return status(td_event_synchronize((struct td_event*)event));
}

hipError_t hipEventQuery(hipEvent_t event) {
  return status(td_event_query((struct td_event*)event));
}

hipError_t hipEventDestroy(hipEvent_t event) {
  return status(td_event_destroy((struct td_event*)event));
}

/* ---- inter-process events: the device model's shared events, whose completion the peer maps ------- */

hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t* handle, hipEvent_t event) {
  if (handle == NULL) return hipErrorInvalidValue;
  return status(td_event_export((struct td_event*)event, handle->reserved));
}

hipError_t hipIpcOpenEventHandle(hipEvent_t* event, hipIpcEventHandle_t handle) {
  if (event == NULL) return hipErrorInvalidValue;
  struct td_event* opened = NULL;
  hipError_t e = status(td_event_open(handle.reserved, &opened));
  if (e == hipSuccess) *event = (hipEvent_t)opened;
  return e;
}

/* ---- control functions of the test double (not HIP entry points) ------------------------------- */

long test_double_live_allocations(void) { return td_live_allocations(); }
long test_double_live_streams(void) { start(); return td_live_queues() - DEVICES; }
long test_double_live_events(void) { return td_live_events(); }
long test_double_executed_copies(void) { return td_executed_copies(); }
long test_double_current_device(void) { return current_device; }
long test_double_device_switches(void) { return __atomic_load_n(&device_switches, __ATOMIC_RELAXED); }
