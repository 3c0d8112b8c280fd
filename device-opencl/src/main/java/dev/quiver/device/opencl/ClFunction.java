package dev.quiver.device.opencl;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every OpenCL function this backend calls: its name, its FFM descriptor and its C declaration as
 * {@code CL/cl.h} spells it (parameter names left out). This table is the only place a downcall is declared;
 * a test compiles the declarations against the real header and checks each descriptor against them.
 *
 * <p>Mapping: {@code cl_int}, {@code cl_uint}, {@code cl_bool} and the {@code cl_*_info} enums are
 * {@code JAVA_INT}; {@code size_t}, {@code cl_ulong} and the {@code cl_bitfield} types
 * ({@code cl_device_type}, {@code cl_mem_flags}, {@code cl_command_queue_properties}) are {@code JAVA_LONG};
 * handles ({@code cl_context}, {@code cl_mem}, ...), pointers and callbacks are {@code ADDRESS}.
 */
enum ClFunction {
    clGetPlatformIDs("cl_int clGetPlatformIDs(cl_uint, cl_platform_id *, cl_uint *)",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)),
    clGetPlatformInfo("cl_int clGetPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *, size_t *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clGetDeviceIDs("cl_int clGetDeviceIDs(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS)),
    clGetDeviceInfo("cl_int clGetDeviceInfo(cl_device_id, cl_device_info, size_t, void *, size_t *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),

    clCreateContext("cl_context clCreateContext(const cl_context_properties *, cl_uint, const cl_device_id *, "
            + "void (*)(const char *, const void *, size_t, void *), void *, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    clRetainContext("cl_int clRetainContext(cl_context)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clReleaseContext("cl_int clReleaseContext(cl_context)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clGetContextInfo("cl_int clGetContextInfo(cl_context, cl_context_info, size_t, void *, size_t *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),

    clCreateCommandQueueWithProperties("cl_command_queue clCreateCommandQueueWithProperties(cl_context, cl_device_id, "
            + "const cl_queue_properties *, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    clCreateCommandQueue("cl_command_queue clCreateCommandQueue(cl_context, cl_device_id, cl_command_queue_properties, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS)),
    clRetainCommandQueue("cl_int clRetainCommandQueue(cl_command_queue)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clReleaseCommandQueue("cl_int clReleaseCommandQueue(cl_command_queue)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clGetCommandQueueInfo("cl_int clGetCommandQueueInfo(cl_command_queue, cl_command_queue_info, size_t, void *, size_t *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clFlush("cl_int clFlush(cl_command_queue)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clFinish("cl_int clFinish(cl_command_queue)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),

    clCreateBuffer("cl_mem clCreateBuffer(cl_context, cl_mem_flags, size_t, void *, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS)),
    clReleaseMemObject("cl_int clReleaseMemObject(cl_mem)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clEnqueueReadBuffer("cl_int clEnqueueReadBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, "
            + "cl_uint, const cl_event *, cl_event *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clEnqueueWriteBuffer("cl_int clEnqueueWriteBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, "
            + "cl_uint, const cl_event *, cl_event *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clEnqueueCopyBuffer("cl_int clEnqueueCopyBuffer(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, "
            + "cl_uint, const cl_event *, cl_event *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS)),

    clEnqueueMarkerWithWaitList("cl_int clEnqueueMarkerWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clEnqueueBarrierWithWaitList("cl_int clEnqueueBarrierWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clWaitForEvents("cl_int clWaitForEvents(cl_uint, const cl_event *)", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    clGetEventInfo("cl_int clGetEventInfo(cl_event, cl_event_info, size_t, void *, size_t *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clCreateUserEvent("cl_event clCreateUserEvent(cl_context, cl_int *)", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)),
    clSetUserEventStatus("cl_int clSetUserEventStatus(cl_event, cl_int)", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
    clSetEventCallback("cl_int clSetEventCallback(cl_event, cl_int, void (*)(cl_event, cl_int, void *), void *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clRetainEvent("cl_int clRetainEvent(cl_event)", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clReleaseEvent("cl_int clReleaseEvent(cl_event)", FunctionDescriptor.of(JAVA_INT, ADDRESS));

    /** The declaration as {@code CL/cl.h} spells it, without parameter names. */
    final String declaration;
    /** How FFM calls it. */
    final FunctionDescriptor descriptor;

    ClFunction(String declaration, FunctionDescriptor descriptor) {
        this.declaration = declaration;
        this.descriptor = descriptor;
    }
}
