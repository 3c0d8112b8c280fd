/*
 * The C limit for the OpenCL work the Java benchmarks do: the same calls a C application makes on the
 * first device of the first platform, with one context and one in-order queue.
 *   bench_cl_round_trip: clEnqueueWriteBuffer + clEnqueueReadBuffer (non-blocking) + clFinish per iteration.
 *   bench_cl_event:      clEnqueueMarkerWithWaitList + clWaitForEvents + clReleaseEvent per iteration.
 *   bench_cl_round_trip_pinned: the round trip from a CL_MEM_ALLOC_HOST_PTR buffer mapped for the host (the
 *                        host memory OpenCL implementations pin), kept between calls.
 *   bench_cl_alloc:      clCreateBuffer + clReleaseMemObject per iteration.
 * bench_cl_open_index picks the device by its index over all platforms in enumeration order, as Quiver's
 * OpenCL device ids count; bench_cl_open picks the first.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

/* 0 when ready, else the OpenCL error of the first failing call. */
static int opened_index = -1;
static void bench_cl_close(void);

int bench_cl_open_index(int index) {
  if (queue != NULL && opened_index == index) return 0;
  if (queue != NULL) bench_cl_close();
  cl_platform_id platforms[16];
  cl_uint count = 0;
  cl_int rc = clGetPlatformIDs(16, platforms, &count);
  if (rc != CL_SUCCESS) return rc;
  int seen = 0;
  for (cl_uint p = 0; p < count && p < 16; p++) {
    cl_device_id devices[64];
    cl_uint n = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devices, &n) != CL_SUCCESS) continue;
    if (index < seen + (int)n) {
      device = devices[index - seen];
      context = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
      if (rc != CL_SUCCESS) return rc;
      queue = clCreateCommandQueueWithProperties(context, device, NULL, &rc);
      if (rc == CL_SUCCESS) opened_index = index;
      return rc;
    }
    seen += (int)n;
  }
  return CL_DEVICE_NOT_FOUND;
}

int bench_cl_open(void) {
  return bench_cl_open_index(0);
}

static cl_mem buffer;
static int64_t buffer_bytes;

/* The device buffer is made once per size, as the Java benchmark's is, and kept between calls. */
int64_t bench_cl_round_trip(void* host, int64_t bytes, int64_t iterations) {
  cl_int rc = CL_SUCCESS;
  if (buffer == NULL || buffer_bytes != bytes) {
    if (buffer != NULL) clReleaseMemObject(buffer);
    buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &rc);
    if (rc != CL_SUCCESS) { buffer = NULL; return rc; }
    buffer_bytes = bytes;
  }
  for (int64_t i = 0; i < iterations && rc == CL_SUCCESS; i++) {
    rc = clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, (size_t)bytes, host, 0, NULL, NULL);
    if (rc == CL_SUCCESS) rc = clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, (size_t)bytes, host, 0, NULL, NULL);
    if (rc == CL_SUCCESS) rc = clFinish(queue);
  }
  return rc;
}

int64_t bench_cl_event(int64_t iterations) {
  cl_int rc = CL_SUCCESS;
  for (int64_t i = 0; i < iterations && rc == CL_SUCCESS; i++) {
    cl_event event;
    rc = clEnqueueMarkerWithWaitList(queue, 0, NULL, &event);
    if (rc != CL_SUCCESS) break;
    clFlush(queue);
    rc = clWaitForEvents(1, &event);
    clReleaseEvent(event);
  }
  return rc;
}

static cl_mem pinned;
static void* pinned_host;
static int64_t pinned_bytes;

int64_t bench_cl_round_trip_pinned(int64_t bytes, int64_t iterations) {
  cl_int rc = CL_SUCCESS;
  if (pinned == NULL || pinned_bytes != bytes) {
    if (pinned != NULL) {
      clEnqueueUnmapMemObject(queue, pinned, pinned_host, 0, NULL, NULL);
      clReleaseMemObject(pinned);
    }
    pinned = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, (size_t)bytes, NULL, &rc);
    if (rc != CL_SUCCESS) { pinned = NULL; return rc; }
    pinned_host = clEnqueueMapBuffer(queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, (size_t)bytes, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) { clReleaseMemObject(pinned); pinned = NULL; return rc; }
    pinned_bytes = bytes;
  }
  return bench_cl_round_trip(pinned_host, bytes, iterations);
}

int64_t bench_cl_alloc(int64_t bytes, int64_t iterations) {
  cl_int rc = CL_SUCCESS;
  for (int64_t i = 0; i < iterations && rc == CL_SUCCESS; i++) {
    cl_mem memory = clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &rc);
    if (rc == CL_SUCCESS) rc = clReleaseMemObject(memory);
  }
  return rc;
}

/* Lets go of the device opened before, with the buffers made on it. */
static void bench_cl_close(void) {
  clFinish(queue);
  if (pinned != NULL) {
    clEnqueueUnmapMemObject(queue, pinned, pinned_host, 0, NULL, NULL);
    clFinish(queue);
    clReleaseMemObject(pinned);
    pinned = NULL;
    pinned_bytes = 0;
  }
  if (buffer != NULL) {
    clReleaseMemObject(buffer);
    buffer = NULL;
    buffer_bytes = 0;
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  queue = NULL;
  context = NULL;
  opened_index = -1;
}
