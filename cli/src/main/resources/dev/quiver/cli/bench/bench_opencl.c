/*
 * The C limit for the OpenCL work the Java benchmarks do: the same calls a C application makes on the
 * first device of the first platform, with one context and one in-order queue.
 *   bench_cl_round_trip: clEnqueueWriteBuffer + clEnqueueReadBuffer (non-blocking) + clFinish per iteration.
 *   bench_cl_event:      clEnqueueMarkerWithWaitList + clWaitForEvents + clReleaseEvent per iteration.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

/* 0 when ready, else the OpenCL error of the first failing call. */
int bench_cl_open(void) {
  if (queue != NULL) return 0;
  cl_platform_id platform;
  cl_uint count = 0;
  cl_int rc = clGetPlatformIDs(1, &platform, &count);
  if (rc != CL_SUCCESS) return rc;
  if (count == 0) return CL_DEVICE_NOT_FOUND;
  rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &count);
  if (rc != CL_SUCCESS) return rc;
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) return rc;
  queue = clCreateCommandQueueWithProperties(context, device, NULL, &rc);
  return rc;
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
