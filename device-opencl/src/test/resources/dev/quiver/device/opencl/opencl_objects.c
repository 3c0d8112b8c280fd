/*
 * Code that uses OpenCL itself on the objects a Quiver device hands out (its cl_platform_id, cl_context,
 * cl_device_id and default cl_command_queue): it checks what they are, makes its own queues and events on
 * them (which Quiver then adopts), completes user events, and reads reference counts. Written against
 * CL/cl.h; linked with the ICD loader.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stddef.h>

/* Where a queue belongs: its context and device. */
cl_int objects_queue_owner(void *queue, void **context_out, void **device_out) {
    cl_int rc = clGetCommandQueueInfo((cl_command_queue) queue, CL_QUEUE_CONTEXT, sizeof(cl_context), context_out, NULL);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    return clGetCommandQueueInfo((cl_command_queue) queue, CL_QUEUE_DEVICE, sizeof(cl_device_id), device_out, NULL);
}

cl_int objects_device_platform(void *device, void **platform_out) {
    return clGetDeviceInfo((cl_device_id) device, CL_DEVICE_PLATFORM, sizeof(cl_platform_id), platform_out, NULL);
}

/* A new queue on the context and device, in order unless asked otherwise. */
cl_int objects_create_queue(void *context, void *device, int out_of_order, void **queue_out) {
    cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int rc = CL_SUCCESS;
    *queue_out = clCreateCommandQueueWithProperties((cl_context) context, (cl_device_id) device,
            out_of_order ? properties : NULL, &rc);
    return rc;
}

cl_int objects_create_user_event(void *context, void **event_out) {
    cl_int rc = CL_SUCCESS;
    *event_out = clCreateUserEvent((cl_context) context, &rc);
    return rc;
}

cl_int objects_complete_user_event(void *event) {
    return clSetUserEventStatus((cl_event) event, CL_COMPLETE);
}

/* A marker on the queue: its event completes when the commands enqueued before it do. */
cl_int objects_enqueue_marker(void *queue, void **event_out) {
    cl_int rc = clEnqueueMarkerWithWaitList((cl_command_queue) queue, 0, NULL, (cl_event *) event_out);
    if (rc != CL_SUCCESS) {
        return rc;
    }
    return clFlush((cl_command_queue) queue);
}

cl_int objects_event_status(void *event, cl_int *status) {
    return clGetEventInfo((cl_event) event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(cl_int), status, NULL);
}

/* Reads size bytes at offset of a cl_mem buffer, blocking, on the given queue. */
cl_int objects_read(void *queue, void *buffer, size_t offset, size_t size, void *out) {
    return clEnqueueReadBuffer((cl_command_queue) queue, (cl_mem) buffer, CL_TRUE, offset, size, out, 0, NULL, NULL);
}

cl_int objects_queue_references(void *queue, cl_uint *count) {
    return clGetCommandQueueInfo((cl_command_queue) queue, CL_QUEUE_REFERENCE_COUNT, sizeof(cl_uint), count, NULL);
}

cl_int objects_event_references(void *event, cl_uint *count) {
    return clGetEventInfo((cl_event) event, CL_EVENT_REFERENCE_COUNT, sizeof(cl_uint), count, NULL);
}

cl_int objects_retain_queue(void *queue) {
    return clRetainCommandQueue((cl_command_queue) queue);
}

cl_int objects_release_queue(void *queue) {
    return clReleaseCommandQueue((cl_command_queue) queue);
}

cl_int objects_retain_event(void *event) {
    return clRetainEvent((cl_event) event);
}

cl_int objects_release_event(void *event) {
    return clReleaseEvent((cl_event) event);
}
