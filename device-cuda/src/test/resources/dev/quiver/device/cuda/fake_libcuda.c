/*
 * Test double of the CUDA driver (libcuda.so.1), for tests only. It proves nothing about NVIDIA hardware:
 * it lets the CUDA backend's own code paths run here, against the API exactly as cuda.h and
 * cudaTypedefs.h declare it. Host memory stands in for the device (see test_double_device.h).
 *
 * Like the real driver, it exports cuGetProcAddress_v2 and hands out the other entry points through it:
 * every implementation here is static, so a backend that looked up any other symbol by name would fail.
 * cuGetProcAddress_v2 selects the ABI variant by the requested CUDA version as the driver does
 * (cuCtxGetDevice and cuStreamGetCtx have two variants here), and each entry is checked at compile time
 * against its PFN_<name>_v<version> typedef from cudaTypedefs.h.
 *
 * Stricter than needed on purpose: calls fail with CUDA_ERROR_NOT_INITIALIZED before cuInit, with
 * CUDA_ERROR_INVALID_CONTEXT when no context is current or a stream is of another context, and copies
 * outside an allocation fail with CUDA_ERROR_INVALID_VALUE.
 *
 * IPC handles are the device model's: cuMemAlloc memory lives in a memfd that another process maps from the
 * handle, so a child process reads and writes the same bytes; opening a handle in the exporting process
 * fails, as with the driver. Events made with CU_EVENT_INTERPROCESS keep their completion in a memfd page
 * that the process opening their handle maps, so that a child process sees the owner's record complete only
 * once the owner's stream ran past it; handle bytes the double never made fail with
 * CUDA_ERROR_INVALID_VALUE, a handle opened in the exporting process with CUDA_ERROR_INVALID_CONTEXT.
 */
#include <cuda.h>
#include <cudaTypedefs.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_double_device.h"

#define DEVICES_MAX 4
#define CONTEXT_STACK_MAX 16

struct context {
  int device;
  int retained;
  struct td_queue* legacy_stream; /* the NULL stream */
};

static int initialized;
static int device_count = 2; /* two, so that device ordinals and contexts are told apart */
static struct context primary[DEVICES_MAX];
static _Thread_local struct context* stack[CONTEXT_STACK_MAX];
static _Thread_local int depth;
static long lookups, legacy_lookups;

static CUresult status(int td) {
  switch (td) {
    case TD_OK: return CUDA_SUCCESS;
    case TD_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case TD_NOT_READY: return CUDA_ERROR_NOT_READY;
    case TD_INVALID_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
    case TD_INVALID_CONTEXT: return CUDA_ERROR_INVALID_CONTEXT;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

static struct context* current(void) {
  return depth > 0 ? stack[depth - 1] : NULL;
}

#define REQUIRE_INIT() do { if (!initialized) return CUDA_ERROR_NOT_INITIALIZED; } while (0)
#define REQUIRE_CONTEXT() do { REQUIRE_INIT(); if (current() == NULL) return CUDA_ERROR_INVALID_CONTEXT; } while (0)
#define REQUIRE_DEVICE(d) do { REQUIRE_INIT(); if ((d) < 0 || (d) >= device_count) return CUDA_ERROR_INVALID_DEVICE; } while (0)

/* The queue behind a CUstream of the current context; NULL is the context's legacy default stream. */
static CUresult queue_of(CUstream stream, struct td_queue** queue) {
  struct context* ctx = current();
  if (stream == NULL) {
    *queue = ctx->legacy_stream;
    td_finish_device(ctx->device, ctx->legacy_stream); /* the legacy stream waits for blocking streams */
    return CUDA_SUCCESS;
  }
  struct td_queue* q = (struct td_queue*)stream;
  if (!td_queue_live(q)) return CUDA_ERROR_INVALID_HANDLE;
  if (td_queue_device(q) != ctx->device) return CUDA_ERROR_INVALID_CONTEXT;
  td_queue_finish(ctx->legacy_stream); /* blocking streams wait for the legacy stream */
  *queue = q;
  return CUDA_SUCCESS;
}

/* ---- initialisation, versions, errors ---------------------------------------------------------- */

static CUresult CUDAAPI double_cuInit(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (!initialized) {
    for (int i = 0; i < device_count; i++) {
      primary[i].device = i;
      primary[i].legacy_stream = td_queue_create(i);
    }
    initialized = 1;
  }
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuDriverGetVersion(int* version) {
  if (version == NULL) return CUDA_ERROR_INVALID_VALUE;
  *version = 12040;
  return CUDA_SUCCESS;
}

#define ERROR_NAMES(X) X(CUDA_SUCCESS) X(CUDA_ERROR_INVALID_VALUE) X(CUDA_ERROR_OUT_OF_MEMORY) \
  X(CUDA_ERROR_NOT_INITIALIZED) X(CUDA_ERROR_NO_DEVICE) X(CUDA_ERROR_INVALID_DEVICE) \
  X(CUDA_ERROR_INVALID_CONTEXT) X(CUDA_ERROR_INVALID_HANDLE) X(CUDA_ERROR_NOT_FOUND) X(CUDA_ERROR_NOT_READY)

static CUresult CUDAAPI double_cuGetErrorName(CUresult error, const char** name) {
#define NAME_CASE(e) case e: *name = #e; return CUDA_SUCCESS;
  switch (error) { ERROR_NAMES(NAME_CASE) default: *name = NULL; return CUDA_ERROR_INVALID_VALUE; }
}

static CUresult CUDAAPI double_cuGetErrorString(CUresult error, const char** text) {
#define TEXT_CASE(e) case e: *text = "test double: " #e; return CUDA_SUCCESS;
  switch (error) { ERROR_NAMES(TEXT_CASE) default: *text = NULL; return CUDA_ERROR_INVALID_VALUE; }
}

/* ---- devices and contexts ---------------------------------------------------------------------- */

static CUresult CUDAAPI double_cuDeviceGetCount(int* count) {
  REQUIRE_INIT();
  *count = device_count;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuDeviceGet(CUdevice* device, int ordinal) {
  REQUIRE_DEVICE(ordinal);
  *device = ordinal;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuDeviceGetName(char* name, int length, CUdevice device) {
  REQUIRE_DEVICE(device);
  if (name == NULL || length <= 0) return CUDA_ERROR_INVALID_VALUE;
  strncpy(name, "CUDA test double (host memory)", (size_t)length - 1);
  name[length - 1] = '\0';
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuDeviceTotalMem_v2(size_t* bytes, CUdevice device) {
  REQUIRE_DEVICE(device);
  *bytes = (size_t)1 << 30;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  REQUIRE_DEVICE(device);
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: *value = 1; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: *value = 1; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED: *value = 1; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

static CUresult CUDAAPI double_cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  REQUIRE_DEVICE(device);
  primary[device].retained++;
  *context = (CUcontext)&primary[device];
  return CUDA_SUCCESS;
}

static struct context* context_of(CUcontext context) {
  for (int i = 0; i < device_count; i++) {
    if ((CUcontext)&primary[i] == context && primary[i].retained > 0) return &primary[i];
  }
  return NULL;
}

static CUresult CUDAAPI double_cuCtxPushCurrent_v2(CUcontext context) {
  REQUIRE_INIT();
  struct context* ctx = context_of(context);
  if (ctx == NULL) return CUDA_ERROR_INVALID_CONTEXT;
  if (depth == CONTEXT_STACK_MAX) return CUDA_ERROR_INVALID_VALUE;
  stack[depth++] = ctx;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuCtxPopCurrent_v2(CUcontext* context) {
  REQUIRE_INIT();
  if (depth == 0) return CUDA_ERROR_INVALID_CONTEXT;
  struct context* ctx = stack[--depth];
  if (context != NULL) *context = (CUcontext)ctx;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuCtxGetDevice(CUdevice* device) {
  REQUIRE_CONTEXT();
  *device = current()->device;
  return CUDA_SUCCESS;
}

/* CUDA 13's variant: the context is an argument. Handed out only to callers asking for 13.0 or newer. */
static CUresult CUDAAPI double_cuCtxGetDevice_v2(CUdevice* device, CUcontext context) {
  REQUIRE_INIT();
  struct context* ctx = context == NULL ? current() : context_of(context);
  if (ctx == NULL) return CUDA_ERROR_INVALID_CONTEXT;
  *device = ctx->device;
  return CUDA_SUCCESS;
}

/* ---- memory ------------------------------------------------------------------------------------ */

static CUresult allocate(int kind, size_t size, uintptr_t* out) {
  REQUIRE_CONTEXT();
  if (out == NULL) return CUDA_ERROR_INVALID_VALUE;
  return status(td_alloc(kind, current()->device, size, 256, out));
}

static CUresult CUDAAPI double_cuMemAlloc_v2(CUdeviceptr* pointer, size_t size) {
  uintptr_t p = 0;
  CUresult r = allocate(TD_DEVICE, size, &p);
  if (r == CUDA_SUCCESS) *pointer = (CUdeviceptr)p;
  return r;
}

static CUresult CUDAAPI double_cuMemAllocManaged(CUdeviceptr* pointer, size_t size, unsigned int flags) {
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) return CUDA_ERROR_INVALID_VALUE;
  uintptr_t p = 0;
  CUresult r = allocate(TD_SHARED, size, &p);
  if (r == CUDA_SUCCESS) *pointer = (CUdeviceptr)p;
  return r;
}

static CUresult CUDAAPI double_cuMemAllocHost_v2(void** pointer, size_t size) {
  uintptr_t p = 0;
  CUresult r = allocate(TD_HOST, size, &p);
  if (r == CUDA_SUCCESS) *pointer = (void*)p;
  return r;
}

static CUresult CUDAAPI double_cuMemFree_v2(CUdeviceptr pointer) {
  REQUIRE_CONTEXT();
  td_finish_device(current()->device, NULL); /* cuMemFree waits for work that may use the memory */
  if (td_free(TD_DEVICE, (uintptr_t)pointer) == TD_OK) return CUDA_SUCCESS;
  return status(td_free(TD_SHARED, (uintptr_t)pointer));
}

static CUresult CUDAAPI double_cuMemFreeHost(void* pointer) {
  REQUIRE_CONTEXT();
  td_finish_device(current()->device, NULL);
  return status(td_free(TD_HOST, (uintptr_t)pointer));
}

/* ---- copies: enqueued, run when the stream is waited for ----------------------------------------- */

static CUresult copy_async(void* dst, const void* src, size_t n, CUstream stream) {
  REQUIRE_CONTEXT();
  struct td_queue* queue;
  CUresult r = queue_of(stream, &queue);
  if (r != CUDA_SUCCESS) return r;
  if (dst == NULL || src == NULL) return CUDA_ERROR_INVALID_VALUE;
  return status(td_enqueue_copy(queue, dst, src, n));
}

static CUresult CUDAAPI double_cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, CUstream stream) {
  return copy_async(td_resolve((uintptr_t)dst, n), src, n, stream);
}

static CUresult CUDAAPI double_cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t n, CUstream stream) {
  return copy_async(dst, td_resolve((uintptr_t)src, n), n, stream);
}

static CUresult CUDAAPI double_cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream stream) {
  return copy_async(td_resolve((uintptr_t)dst, n), td_resolve((uintptr_t)src, n), n, stream);
}

/* ---- streams ----------------------------------------------------------------------------------- */

static CUresult CUDAAPI double_cuStreamCreate(CUstream* stream, unsigned int flags) {
  REQUIRE_CONTEXT();
  if (stream == NULL || (flags != CU_STREAM_DEFAULT && flags != CU_STREAM_NON_BLOCKING)) return CUDA_ERROR_INVALID_VALUE;
  struct td_queue* queue = td_queue_create(current()->device);
  if (queue == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  *stream = (CUstream)queue;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuStreamSynchronize(CUstream stream) {
  REQUIRE_CONTEXT();
  struct td_queue* queue;
  CUresult r = queue_of(stream, &queue);
  return r != CUDA_SUCCESS ? r : status(td_queue_finish(queue));
}

static CUresult CUDAAPI double_cuStreamDestroy_v2(CUstream stream) {
  REQUIRE_CONTEXT();
  if (stream == NULL) return CUDA_ERROR_INVALID_HANDLE;
  return status(td_queue_destroy((struct td_queue*)stream));
}

static CUresult CUDAAPI double_cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  REQUIRE_CONTEXT();
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  struct td_queue* queue;
  CUresult r = queue_of(stream, &queue);
  return r != CUDA_SUCCESS ? r : status(td_enqueue_wait(queue, (struct td_event*)event));
}

static CUresult CUDAAPI double_cuStreamGetCtx(CUstream stream, CUcontext* context) {
  REQUIRE_CONTEXT();
  if (stream == NULL) {
    *context = (CUcontext)current();
    return CUDA_SUCCESS;
  }
  struct td_queue* queue = (struct td_queue*)stream;
  if (!td_queue_live(queue)) return CUDA_ERROR_INVALID_HANDLE;
  *context = (CUcontext)&primary[td_queue_device(queue)];
  return CUDA_SUCCESS;
}

/* CUDA 12.5's variant with a green context argument. Handed out only to callers asking for 12.5 or newer. */
static CUresult CUDAAPI double_cuStreamGetCtx_v2(CUstream stream, CUcontext* context, CUgreenCtx* green) {
  if (green != NULL) *green = NULL;
  return double_cuStreamGetCtx(stream, context);
}

/* ---- events ------------------------------------------------------------------------------------ */

static CUresult CUDAAPI double_cuEventCreate(CUevent* event, unsigned int flags) {
  REQUIRE_CONTEXT();
  if (event == NULL || (flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS)) != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  /* as cuda.h says: CU_EVENT_INTERPROCESS must be given with CU_EVENT_DISABLE_TIMING */
  if ((flags & CU_EVENT_INTERPROCESS) != 0 && (flags & CU_EVENT_DISABLE_TIMING) == 0) return CUDA_ERROR_INVALID_VALUE;
  struct td_event* e = (flags & CU_EVENT_INTERPROCESS) != 0 ? td_event_create_shared() : td_event_create();
  if (e == NULL) return CUDA_ERROR_OUT_OF_MEMORY;
  *event = (CUevent)e;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuEventRecord(CUevent event, CUstream stream) {
  REQUIRE_CONTEXT();
  struct td_queue* queue;
  CUresult r = queue_of(stream, &queue);
  return r != CUDA_SUCCESS ? r : status(td_event_record((struct td_event*)event, queue));
}

static CUresult CUDAAPI double_cuEventSynchronize(CUevent event) {
  REQUIRE_INIT();
  return status(td_event_synchronize((struct td_event*)event));
}

static CUresult CUDAAPI double_cuEventQuery(CUevent event) {
  REQUIRE_INIT();
  return status(td_event_query((struct td_event*)event));
}

static CUresult CUDAAPI double_cuEventDestroy_v2(CUevent event) {
  REQUIRE_INIT();
  return status(td_event_destroy((struct td_event*)event));
}

/* ---- pointer attributes ------------------------------------------------------------------------ */

static CUresult CUDAAPI double_cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr pointer) {
  REQUIRE_INIT();
  int kind, device;
  if (td_describe((uintptr_t)pointer, &kind, &device) != TD_OK) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *(unsigned int*)data = kind == TD_HOST ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      *(unsigned int*)data = kind == TD_SHARED;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *(int*)data = device;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      *(CUcontext*)data = (CUcontext)&primary[device];
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

/* ---- inter-process memory: the device model's memfd allocations, mapped by the peer ---------------- */

static CUresult CUDAAPI double_cuMemGetAddressRange_v2(CUdeviceptr* base, size_t* size, CUdeviceptr pointer) {
  REQUIRE_CONTEXT();
  uintptr_t start = 0;
  size_t bytes = 0;
  if (td_range((uintptr_t)pointer, &start, &bytes) != TD_OK) return CUDA_ERROR_NOT_FOUND;
  if (base != NULL) *base = (CUdeviceptr)start;
  if (size != NULL) *size = bytes;
  return CUDA_SUCCESS;
}

static CUresult CUDAAPI double_cuIpcGetMemHandle(CUipcMemHandle* handle, CUdeviceptr pointer) {
  REQUIRE_CONTEXT();
  if (handle == NULL) return CUDA_ERROR_INVALID_VALUE;
  return status(td_ipc_export((uintptr_t)pointer, handle->reserved));
}

static CUresult CUDAAPI double_cuIpcOpenMemHandle_v2(CUdeviceptr* pointer, CUipcMemHandle handle, unsigned int flags) {
  REQUIRE_CONTEXT();
  if (pointer == NULL || flags != CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) return CUDA_ERROR_INVALID_VALUE;
  uintptr_t opened = 0;
  CUresult r = status(td_ipc_open(handle.reserved, &opened));
  if (r == CUDA_SUCCESS) *pointer = (CUdeviceptr)opened;
  return r;
}

static CUresult CUDAAPI double_cuIpcCloseMemHandle(CUdeviceptr pointer) {
  REQUIRE_CONTEXT();
  return status(td_ipc_close((uintptr_t)pointer));
}

/* ---- inter-process events: the device model's shared events, whose completion the peer maps ------- */

static CUresult CUDAAPI double_cuIpcGetEventHandle(CUipcEventHandle* handle, CUevent event) {
  REQUIRE_CONTEXT();
  if (handle == NULL) return CUDA_ERROR_INVALID_VALUE;
  return status(td_event_export((struct td_event*)event, handle->reserved));
}

static CUresult CUDAAPI double_cuIpcOpenEventHandle(CUevent* event, CUipcEventHandle handle) {
  REQUIRE_CONTEXT();
  if (event == NULL) return CUDA_ERROR_INVALID_VALUE;
  struct td_event* opened = NULL;
  CUresult r = status(td_event_open(handle.reserved, &opened));
  if (r == CUDA_SUCCESS) *event = (CUevent)opened;
  return r;
}

/* ---- the one exported entry point -------------------------------------------------------------- */

/* Offers fn as the variant of `name` introduced in CUDA `version`, checked against cudaTypedefs.h. */
#define VARIANT(name, version, fn)                                                                    \
  do {                                                                                                \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&fn), PFN_##name##_v##version),            \
                   #fn " does not have the type of PFN_" #name "_v" #version);                         \
    if (strcmp(symbol, #name) == 0 && version <= cudaVersion && version > best_version) {            \
      best = (void*)fn;                                                                               \
      best_version = version;                                                                         \
    }                                                                                                 \
    if (strcmp(symbol, #name) == 0) known = 1;                                                        \
  } while (0)

CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* symbolStatus) {
  void* best = NULL;
  int best_version = 0;
  int known = 0;
  if (symbol == NULL || pfn == NULL) return CUDA_ERROR_INVALID_VALUE;
  __atomic_add_fetch(&lookups, 1, __ATOMIC_RELAXED);
  if (flags == CU_GET_PROC_ADDRESS_LEGACY_STREAM) __atomic_add_fetch(&legacy_lookups, 1, __ATOMIC_RELAXED);
  VARIANT(cuInit, 2000, double_cuInit);
  VARIANT(cuDriverGetVersion, 2020, double_cuDriverGetVersion);
  VARIANT(cuGetErrorName, 6000, double_cuGetErrorName);
  VARIANT(cuGetErrorString, 6000, double_cuGetErrorString);
  VARIANT(cuDeviceGetCount, 2000, double_cuDeviceGetCount);
  VARIANT(cuDeviceGet, 2000, double_cuDeviceGet);
  VARIANT(cuDeviceGetName, 2000, double_cuDeviceGetName);
  VARIANT(cuDeviceTotalMem, 3020, double_cuDeviceTotalMem_v2);
  VARIANT(cuDeviceGetAttribute, 2000, double_cuDeviceGetAttribute);
  VARIANT(cuDevicePrimaryCtxRetain, 7000, double_cuDevicePrimaryCtxRetain);
  VARIANT(cuCtxPushCurrent, 4000, double_cuCtxPushCurrent_v2);
  VARIANT(cuCtxPopCurrent, 4000, double_cuCtxPopCurrent_v2);
  VARIANT(cuCtxGetDevice, 2000, double_cuCtxGetDevice);
  VARIANT(cuCtxGetDevice, 13000, double_cuCtxGetDevice_v2);
  VARIANT(cuMemAlloc, 3020, double_cuMemAlloc_v2);
  VARIANT(cuMemFree, 3020, double_cuMemFree_v2);
  VARIANT(cuMemAllocHost, 3020, double_cuMemAllocHost_v2);
  VARIANT(cuMemFreeHost, 2000, double_cuMemFreeHost);
  VARIANT(cuMemAllocManaged, 6000, double_cuMemAllocManaged);
  VARIANT(cuMemcpyHtoDAsync, 3020, double_cuMemcpyHtoDAsync_v2);
  VARIANT(cuMemcpyDtoHAsync, 3020, double_cuMemcpyDtoHAsync_v2);
  VARIANT(cuMemcpyDtoDAsync, 3020, double_cuMemcpyDtoDAsync_v2);
  VARIANT(cuStreamCreate, 2000, double_cuStreamCreate);
  VARIANT(cuStreamSynchronize, 2000, double_cuStreamSynchronize);
  VARIANT(cuStreamDestroy, 4000, double_cuStreamDestroy_v2);
  VARIANT(cuStreamWaitEvent, 3020, double_cuStreamWaitEvent);
  VARIANT(cuStreamGetCtx, 9020, double_cuStreamGetCtx);
  VARIANT(cuStreamGetCtx, 12050, double_cuStreamGetCtx_v2);
  VARIANT(cuEventCreate, 2000, double_cuEventCreate);
  VARIANT(cuEventRecord, 2000, double_cuEventRecord);
  VARIANT(cuEventSynchronize, 2000, double_cuEventSynchronize);
  VARIANT(cuEventQuery, 2000, double_cuEventQuery);
  VARIANT(cuEventDestroy, 4000, double_cuEventDestroy_v2);
  VARIANT(cuPointerGetAttribute, 4000, double_cuPointerGetAttribute);
  VARIANT(cuMemGetAddressRange, 3020, double_cuMemGetAddressRange_v2);
  VARIANT(cuIpcGetMemHandle, 4010, double_cuIpcGetMemHandle);
  VARIANT(cuIpcOpenMemHandle, 11000, double_cuIpcOpenMemHandle_v2);
  VARIANT(cuIpcCloseMemHandle, 4010, double_cuIpcCloseMemHandle);
  VARIANT(cuIpcGetEventHandle, 4010, double_cuIpcGetEventHandle);
  VARIANT(cuIpcOpenEventHandle, 4010, double_cuIpcOpenEventHandle);
  *pfn = best;
  if (best != NULL && (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) == 0) {
    if (symbolStatus != NULL) *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
    return CUDA_SUCCESS;
  }
  *pfn = NULL;
  if (symbolStatus != NULL) {
    *symbolStatus = known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  }
  return CUDA_ERROR_NOT_FOUND;
}

/* ---- control functions of the test double (not CUDA entry points) ------------------------------ */

long test_double_lookups(void) { return __atomic_load_n(&lookups, __ATOMIC_RELAXED); }
long test_double_legacy_stream_lookups(void) { return __atomic_load_n(&legacy_lookups, __ATOMIC_RELAXED); }
long test_double_live_allocations(void) { return td_live_allocations(); }
long test_double_live_streams(void) { return td_live_queues() - (initialized ? device_count : 0); }
long test_double_live_events(void) { return td_live_events(); }
long test_double_executed_copies(void) { return td_executed_copies(); }
long test_double_context_depth(void) { return depth; }
long test_double_primary_retains(void) { return primary[0].retained; }
long test_double_primary_context(void) { return (long)(uintptr_t)&primary[0]; }
int test_double_push_primary(int ordinal) {
  return double_cuCtxPushCurrent_v2((CUcontext)&primary[ordinal]) == CUDA_SUCCESS ? 0 : 1;
}
int test_double_pop(int ignored) {
  return double_cuCtxPopCurrent_v2(NULL) == CUDA_SUCCESS ? 0 : 1;
}
/* A stream and an event as an application makes them with the driver API, in a device's primary context:
 * what the backend is asked to adopt. Return the handle, or 0 on failure. */
static long application_object(int ordinal, int event) {
  void* made = NULL;
  if (double_cuCtxPushCurrent_v2((CUcontext)&primary[ordinal]) != CUDA_SUCCESS) return 0;
  CUresult r = event ? double_cuEventCreate((CUevent*)&made, CU_EVENT_DISABLE_TIMING)
                     : double_cuStreamCreate((CUstream*)&made, CU_STREAM_NON_BLOCKING);
  double_cuCtxPopCurrent_v2(NULL);
  return r == CUDA_SUCCESS ? (long)(uintptr_t)made : 0;
}
long test_double_application_stream(int ordinal) { return application_object(ordinal, 0); }
long test_double_application_event(int ordinal) { return application_object(ordinal, 1); }
