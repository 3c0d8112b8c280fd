/*
 * An application that already uses OpenCL: it makes its own context and queue (which Quiver then adopts),
 * reports their reference counts, and consumes what Quiver hands over through the Arrow C Device interface
 * the way any C consumer would: it waits on sync_event as a cl_event* and reads cl_mem buffers with byte
 * offsets on its own queue. Written against CL/cl.h; linked with the ICD loader.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stddef.h>

static cl_int first_device(cl_platform_id *platform, cl_device_id *device) {
    cl_uint count = 0;
    cl_int rc = clGetPlatformIDs(1, platform, &count);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    return clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 1, device, &count);
}

/* Makes a context on the first device and a queue on it (out-of-order if asked). */
cl_int app_create(int out_of_order, void **context_out, void **queue_out) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int rc = first_device(&platform, &device);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties) platform, 0};
    cl_context context = clCreateContext(properties, 1, &device, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    cl_queue_properties queue_properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, out_of_order ? queue_properties : NULL, &rc);
    if (rc != CL_SUCCESS) {
        clReleaseContext(context);
        return rc;
    }
    *context_out = context;
    *queue_out = queue;
    return CL_SUCCESS;
}

cl_int app_reference_counts(void *context, void *queue, cl_uint *context_refs, cl_uint *queue_refs) {
    cl_int rc = clGetContextInfo((cl_context) context, CL_CONTEXT_REFERENCE_COUNT, sizeof(cl_uint), context_refs, NULL);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    return clGetCommandQueueInfo((cl_command_queue) queue, CL_QUEUE_REFERENCE_COUNT, sizeof(cl_uint), queue_refs, NULL);
}

cl_int app_release(void *context, void *queue) {
    cl_int rc = clReleaseCommandQueue((cl_command_queue) queue);
    cl_int rc2 = clReleaseContext((cl_context) context);
    return rc != CL_SUCCESS ? rc : rc2;
}

/* A consumer honouring an ArrowDeviceArray's sync_event: a cl_event*. Writes the event's final status. */
cl_int app_wait_sync_event(void *sync_event, cl_int *status) {
    cl_event *event = (cl_event *) sync_event;
    cl_int rc = clWaitForEvents(1, event);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    return clGetEventInfo(*event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(cl_int), status, NULL);
}

/* Reads size bytes at offset of a cl_mem buffer, blocking, on the application's queue. */
cl_int app_read(void *queue, void *buffer, size_t offset, size_t size, void *out) {
    return clEnqueueReadBuffer((cl_command_queue) queue, (cl_mem) buffer, CL_TRUE, offset, size, out, 0, NULL, NULL);
}
