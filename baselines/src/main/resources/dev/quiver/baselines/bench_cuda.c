/*
 * The C limit for the CUDA work the memory benchmark does, as a C application writes it against the driver
 * API on device 0's primary context (the context Quiver works in too). The driver is loaded with dlopen and
 * every entry point obtained through cuGetProcAddress, so that nothing CUDA is needed to build this file but
 * the toolkit's cuda.h.
 *   bench_cuda_round_trip: cuMemcpyHtoDAsync + cuMemcpyDtoHAsync + cuStreamSynchronize per iteration, from
 *                          pageable memory the caller gives or from cuMemAllocHost memory kept between calls.
 *   bench_cuda_alloc:      cuMemAlloc + cuMemFree, or cuMemAllocAsync + cuMemFreeAsync on the device's
 *                          default memory pool (warm: the pool keeps what was freed).
 *   bench_cuda_event:      cuEventCreate(CU_EVENT_DISABLE_TIMING) + cuEventRecord + cuEventSynchronize +
 *                          cuEventDestroy on a created stream.
 * Every function returns a CUresult (0 for success); bench_cuda_open returns -1 when the library is missing.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#define NEED(name, version)                                                                          \
  if (getProc(#name, (void**)&p_##name, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL) != 0 ||      \
      p_##name == NULL) return CUDA_ERROR_NOT_FOUND;

static CUresult (*getProc)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
static CUresult (*p_cuInit)(unsigned int);
static CUresult (*p_cuDeviceGet)(CUdevice*, int);
static CUresult (*p_cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
static CUresult (*p_cuCtxPushCurrent)(CUcontext);
static CUresult (*p_cuCtxPopCurrent)(CUcontext*);
static CUresult (*p_cuMemAlloc)(CUdeviceptr*, size_t);
static CUresult (*p_cuMemFree)(CUdeviceptr);
static CUresult (*p_cuMemAllocHost)(void**, size_t);
static CUresult (*p_cuMemFreeHost)(void*);
static CUresult (*p_cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
static CUresult (*p_cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
static CUresult (*p_cuStreamCreate)(CUstream*, unsigned int);
static CUresult (*p_cuStreamSynchronize)(CUstream);
static CUresult (*p_cuEventCreate)(CUevent*, unsigned int);
static CUresult (*p_cuEventRecord)(CUevent, CUstream);
static CUresult (*p_cuEventSynchronize)(CUevent);
static CUresult (*p_cuEventDestroy)(CUevent);
static CUresult (*p_cuMemAllocAsync)(CUdeviceptr*, size_t, CUstream);
static CUresult (*p_cuMemFreeAsync)(CUdeviceptr, CUstream);

static CUcontext context;
static CUstream stream;

int bench_cuda_open(const char* library) {
  if (context != NULL) return 0;
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return -1;
  getProc = dlsym(handle, "cuGetProcAddress_v2");
  if (getProc == NULL) return -1;
  NEED(cuInit, 2000);
  NEED(cuDeviceGet, 2000);
  NEED(cuDevicePrimaryCtxRetain, 7000);
  NEED(cuCtxPushCurrent, 4000);
  NEED(cuCtxPopCurrent, 4000);
  NEED(cuMemAlloc, 3020);
  NEED(cuMemFree, 3020);
  NEED(cuMemAllocHost, 3020);
  NEED(cuMemFreeHost, 2000);
  NEED(cuMemcpyHtoDAsync, 3020);
  NEED(cuMemcpyDtoHAsync, 3020);
  NEED(cuStreamCreate, 2000);
  NEED(cuStreamSynchronize, 2000);
  NEED(cuEventCreate, 2000);
  NEED(cuEventRecord, 2000);
  NEED(cuEventSynchronize, 2000);
  NEED(cuEventDestroy, 4000);
  /* stream-ordered allocation is optional (CUDA 11.2 and later) */
  getProc("cuMemAllocAsync", (void**)&p_cuMemAllocAsync, 11020, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL);
  getProc("cuMemFreeAsync", (void**)&p_cuMemFreeAsync, 11020, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL);
  CUresult rc = p_cuInit(0);
  CUdevice device;
  if (rc == CUDA_SUCCESS) rc = p_cuDeviceGet(&device, 0);
  if (rc == CUDA_SUCCESS) rc = p_cuDevicePrimaryCtxRetain(&context, device);
  if (rc == CUDA_SUCCESS) rc = p_cuCtxPushCurrent(context);
  if (rc == CUDA_SUCCESS) {
    rc = p_cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
    CUcontext popped;
    p_cuCtxPopCurrent(&popped);
  }
  if (rc != CUDA_SUCCESS) context = NULL;
  return rc;
}

static CUdeviceptr device_buffer;
static int64_t device_bytes;
static void* pinned_buffer;
static int64_t pinned_bytes;

/* Buffers are made once per size, as the Java benchmark's are, and kept between calls. */
int64_t bench_cuda_round_trip(void* pageable, int64_t bytes, int64_t pinned, int64_t iterations) {
  CUresult rc = p_cuCtxPushCurrent(context);
  if (rc != CUDA_SUCCESS) return rc;
  if (device_bytes != bytes) {
    if (device_buffer != 0) p_cuMemFree(device_buffer);
    device_buffer = 0;
    device_bytes = 0;
    rc = p_cuMemAlloc(&device_buffer, (size_t)bytes);
    if (rc == CUDA_SUCCESS) device_bytes = bytes;
  }
  void* host = pageable;
  if (rc == CUDA_SUCCESS && pinned) {
    if (pinned_bytes != bytes) {
      if (pinned_buffer != NULL) p_cuMemFreeHost(pinned_buffer);
      pinned_buffer = NULL;
      pinned_bytes = 0;
      rc = p_cuMemAllocHost(&pinned_buffer, (size_t)bytes);
      if (rc == CUDA_SUCCESS) {
        pinned_bytes = bytes;
        memset(pinned_buffer, 3, (size_t)bytes);
      }
    }
    host = pinned_buffer;
  }
  for (int64_t i = 0; i < iterations && rc == CUDA_SUCCESS; i++) {
    rc = p_cuMemcpyHtoDAsync(device_buffer, host, (size_t)bytes, stream);
    if (rc == CUDA_SUCCESS) rc = p_cuMemcpyDtoHAsync(host, device_buffer, (size_t)bytes, stream);
    if (rc == CUDA_SUCCESS) rc = p_cuStreamSynchronize(stream);
  }
  CUcontext popped;
  p_cuCtxPopCurrent(&popped);
  return rc;
}

/* 1 when the driver has stream-ordered allocation. */
int bench_cuda_has_async_alloc(void) {
  return p_cuMemAllocAsync != NULL && p_cuMemFreeAsync != NULL;
}

int64_t bench_cuda_alloc(int64_t bytes, int64_t stream_ordered, int64_t iterations) {
  CUresult rc = p_cuCtxPushCurrent(context);
  if (rc != CUDA_SUCCESS) return rc;
  for (int64_t i = 0; i < iterations && rc == CUDA_SUCCESS; i++) {
    CUdeviceptr pointer;
    if (stream_ordered) {
      rc = p_cuMemAllocAsync(&pointer, (size_t)bytes, stream);
      if (rc == CUDA_SUCCESS) rc = p_cuMemFreeAsync(pointer, stream);
    } else {
      rc = p_cuMemAlloc(&pointer, (size_t)bytes);
      if (rc == CUDA_SUCCESS) rc = p_cuMemFree(pointer);
    }
  }
  if (rc == CUDA_SUCCESS && stream_ordered) rc = p_cuStreamSynchronize(stream);
  CUcontext popped;
  p_cuCtxPopCurrent(&popped);
  return rc;
}

int64_t bench_cuda_event(int64_t iterations) {
  CUresult rc = p_cuCtxPushCurrent(context);
  if (rc != CUDA_SUCCESS) return rc;
  for (int64_t i = 0; i < iterations && rc == CUDA_SUCCESS; i++) {
    CUevent event;
    rc = p_cuEventCreate(&event, CU_EVENT_DISABLE_TIMING);
    if (rc != CUDA_SUCCESS) break;
    rc = p_cuEventRecord(event, stream);
    if (rc == CUDA_SUCCESS) rc = p_cuEventSynchronize(event);
    p_cuEventDestroy(event);
  }
  CUcontext popped;
  p_cuCtxPopCurrent(&popped);
  return rc;
}
