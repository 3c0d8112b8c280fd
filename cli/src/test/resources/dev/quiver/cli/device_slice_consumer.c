/*
 * A C consumer of ArrowDeviceArrays on an OpenCL or Vulkan device. It walks the structs of an export
 * without dereferencing a buffer (on these devices buffers are cl_mem or VkBuffer handles, not addresses),
 * and on OpenCL reads an int32 member of a struct array out of its cl_mem as any OpenCL program would:
 * the context from the cl_mem, a queue of its own on the context's device, a wait on sync_event, a
 * blocking read of the slots the array's offsets select. Written against CL/cl.h; linked with the ICD
 * loader.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdlib.h>
#include "arrow_c_abi.h"

/* Error codes of this file, beside OpenCL's (which are negative and above -1000). */
#define SLICE_SHORT_OUTPUT (-2001)
#define SLICE_NOT_INT32_MEMBER (-2002)
#define SLICE_BUFFER_TOO_SMALL (-2003)
#define SLICE_NO_MEMORY (-2004)

static int64_t put(int64_t *out, int64_t at, int64_t capacity, int64_t value) {
  if (at < 0 || at >= capacity) return -1;
  out[at] = value;
  return at + 1;
}

/*
 * Writes one node and its descendants depth first: length, offset, null_count, n_buffers, each buffer
 * handle, n_children, each child, then 1 and the dictionary, or 0. Returns the next free index, -1 if
 * out is too small.
 */
static int64_t walk(const struct ArrowArray *a, int64_t *out, int64_t at, int64_t capacity) {
  at = put(out, at, capacity, a->length);
  at = put(out, at, capacity, a->offset);
  at = put(out, at, capacity, a->null_count);
  at = put(out, at, capacity, a->n_buffers);
  for (int64_t i = 0; i < a->n_buffers; i++) {
    at = put(out, at, capacity, (int64_t) (intptr_t) a->buffers[i]);
  }
  at = put(out, at, capacity, a->n_children);
  for (int64_t i = 0; i < a->n_children && at >= 0; i++) {
    at = walk(a->children[i], out, at, capacity);
  }
  at = put(out, at, capacity, a->dictionary != NULL);
  if (a->dictionary != NULL && at >= 0) {
    at = walk(a->dictionary, out, at, capacity);
  }
  return at;
}

/* device_type, device_id, whether sync_event is set, then the array tree as walk writes it; the count written or -1. */
int64_t slice_describe(const struct ArrowDeviceArray *d, int64_t *out, int64_t capacity) {
  int64_t at = put(out, 0, capacity, d->device_type);
  at = put(out, at, capacity, d->device_id);
  at = put(out, at, capacity, d->sync_event != NULL);
  return at < 0 ? -1 : walk(&d->array, out, at, capacity);
}

static cl_int read_range(cl_mem memory, size_t from, size_t bytes, void *into) {
  if (bytes == 0) return CL_SUCCESS;
  size_t size = 0;
  cl_context context = NULL;
  cl_int rc = clGetMemObjectInfo(memory, CL_MEM_SIZE, sizeof size, &size, NULL);
  if (rc == CL_SUCCESS) rc = clGetMemObjectInfo(memory, CL_MEM_CONTEXT, sizeof context, &context, NULL);
  if (rc != CL_SUCCESS) return rc;
  if (from + bytes > size) return SLICE_BUFFER_TOO_SMALL;
  cl_device_id device = NULL;
  rc = clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof device, &device, NULL);
  if (rc != CL_SUCCESS && rc != CL_INVALID_VALUE) return rc;
  if (rc == CL_INVALID_VALUE) {
    /* several devices: the first one will do for a read */
    size_t all = 0;
    rc = clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, NULL, &all);
    cl_device_id *devices = rc == CL_SUCCESS ? malloc(all) : NULL;
    if (devices == NULL) return rc != CL_SUCCESS ? rc : SLICE_NO_MEMORY;
    rc = clGetContextInfo(context, CL_CONTEXT_DEVICES, all, devices, NULL);
    device = devices[0];
    free(devices);
    if (rc != CL_SUCCESS) return rc;
  }
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &rc);
  if (rc != CL_SUCCESS) return rc;
  rc = clEnqueueReadBuffer(queue, memory, CL_TRUE, from, bytes, into, 0, NULL, NULL);
  cl_int released = clReleaseCommandQueue(queue);
  return rc != CL_SUCCESS ? rc : released;
}

/*
 * Reads member `member` (an int32 array) of the struct array on OpenCL that d holds: for row j of the
 * struct, slot d->array.offset + member->offset + j of the member's buffers. Waits on sync_event first.
 * values[j] gets the value, valid[j] 1 or 0. Returns CL_SUCCESS, an OpenCL error or one of this file's.
 */
cl_int slice_read_int32_member(const struct ArrowDeviceArray *d, int64_t member, int32_t *values, uint8_t *valid) {
  const struct ArrowArray *parent = &d->array;
  if (member < 0 || member >= parent->n_children || parent->children[member]->n_buffers != 2) return SLICE_NOT_INT32_MEMBER;
  const struct ArrowArray *m = parent->children[member];
  if (d->sync_event != NULL) {
    cl_int rc = clWaitForEvents(1, (const cl_event *) d->sync_event);
    if (rc != CL_SUCCESS) return rc;
  }
  size_t first = (size_t) (parent->offset + m->offset);
  size_t length = (size_t) parent->length;
  cl_int rc = read_range((cl_mem) m->buffers[1], first * 4, length * 4, values);
  if (rc != CL_SUCCESS) return rc;
  if (m->buffers[0] == NULL) {
    for (size_t j = 0; j < length; j++) valid[j] = 1;
    return CL_SUCCESS;
  }
  size_t from = first / 8;
  size_t bytes = length == 0 ? 0 : (first + length + 7) / 8 - from;
  uint8_t *bits = malloc(bytes == 0 ? 1 : bytes);
  if (bits == NULL) return SLICE_NO_MEMORY;
  rc = read_range((cl_mem) m->buffers[0], from, bytes, bits);
  for (size_t j = 0; j < length && rc == CL_SUCCESS; j++) {
    size_t bit = first - from * 8 + j;
    valid[j] = (bits[bit / 8] >> (bit % 8)) & 1;
  }
  free(bits);
  return rc;
}

/* Releases an export and its schema as a consumer does; 0 if both were live and are released now. */
int slice_release(struct ArrowDeviceArray *d, struct ArrowSchema *s) {
  if (d->array.release == NULL || s->release == NULL) return 1;
  d->array.release(&d->array);
  s->release(s);
  return d->array.release == NULL && s->release == NULL ? 0 : 2;
}
