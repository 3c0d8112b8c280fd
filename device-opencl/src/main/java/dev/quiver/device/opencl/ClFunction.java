package dev.quiver.device.opencl;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every OpenCL function this backend calls: its name, its FFM descriptor and its C declaration as
 * {@code CL/cl.h} spells it (parameter names left out). This table is the only place a downcall is declared:
 * the bindings are made from it ({@link dev.quiver.device.ffm.VendorLibrary#bindAll}), and a test compiles
 * the declarations against the real header and checks each descriptor against them.
 *
 * <p>Mapping: {@code cl_int}, {@code cl_uint}, {@code cl_bool} and the {@code cl_*_info} enums are
 * {@code JAVA_INT}; {@code size_t}, {@code cl_ulong} and the {@code cl_bitfield} types
 * ({@code cl_device_type}, {@code cl_mem_flags}, {@code cl_command_queue_properties}) are {@code JAVA_LONG};
 * handles ({@code cl_context}, {@code cl_mem}, ...), pointers and callbacks are {@code ADDRESS}.
 */
enum ClFunction implements CFunction.Table {
    clGetPlatformIDs(CFunction.of("cl_int clGetPlatformIDs(cl_uint, cl_platform_id *, cl_uint *)",
            JAVA_INT, JAVA_INT, ADDRESS, ADDRESS)),
    clGetPlatformInfo(CFunction.of("cl_int clGetPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *, size_t *)",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clGetDeviceIDs(CFunction.of("cl_int clGetDeviceIDs(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *)",
            JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS)),
    clGetDeviceInfo(CFunction.of("cl_int clGetDeviceInfo(cl_device_id, cl_device_info, size_t, void *, size_t *)",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),

    clCreateContext(CFunction.of("cl_context clCreateContext(const cl_context_properties *, cl_uint, const cl_device_id *, "
            + "void (*)(const char *, const void *, size_t, void *), void *, cl_int *)",
            ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    clRetainContext(CFunction.of("cl_int clRetainContext(cl_context)", JAVA_INT, ADDRESS)),
    clReleaseContext(CFunction.of("cl_int clReleaseContext(cl_context)", JAVA_INT, ADDRESS)),
    clGetContextInfo(CFunction.of("cl_int clGetContextInfo(cl_context, cl_context_info, size_t, void *, size_t *)",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),

    clCreateCommandQueueWithProperties(CFunction.of("cl_command_queue clCreateCommandQueueWithProperties(cl_context, cl_device_id, "
            + "const cl_queue_properties *, cl_int *)",
            ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    clCreateCommandQueue(CFunction.of("cl_command_queue clCreateCommandQueue(cl_context, cl_device_id, cl_command_queue_properties, cl_int *)",
            ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS)),
    clRetainCommandQueue(CFunction.of("cl_int clRetainCommandQueue(cl_command_queue)", JAVA_INT, ADDRESS)),
    clReleaseCommandQueue(CFunction.of("cl_int clReleaseCommandQueue(cl_command_queue)", JAVA_INT, ADDRESS)),
    clGetCommandQueueInfo(CFunction.of("cl_int clGetCommandQueueInfo(cl_command_queue, cl_command_queue_info, size_t, void *, size_t *)",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clFlush(CFunction.of("cl_int clFlush(cl_command_queue)", JAVA_INT, ADDRESS)),
    clFinish(CFunction.of("cl_int clFinish(cl_command_queue)", JAVA_INT, ADDRESS)),

    clCreateBuffer(CFunction.of("cl_mem clCreateBuffer(cl_context, cl_mem_flags, size_t, void *, cl_int *)",
            ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS)),
    clReleaseMemObject(CFunction.of("cl_int clReleaseMemObject(cl_mem)", JAVA_INT, ADDRESS)),
    clEnqueueReadBuffer(CFunction.of("cl_int clEnqueueReadBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, "
            + "cl_uint, const cl_event *, cl_event *)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clEnqueueWriteBuffer(CFunction.of("cl_int clEnqueueWriteBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, "
            + "cl_uint, const cl_event *, cl_event *)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clEnqueueCopyBuffer(CFunction.of("cl_int clEnqueueCopyBuffer(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, "
            + "cl_uint, const cl_event *, cl_event *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS)),

    clEnqueueMapBuffer(CFunction.of("void * clEnqueueMapBuffer(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, "
            + "cl_uint, const cl_event *, cl_event *, cl_int *)",
            ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    clEnqueueUnmapMemObject(CFunction.of("cl_int clEnqueueUnmapMemObject(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),

    clEnqueueMarkerWithWaitList(CFunction.of("cl_int clEnqueueMarkerWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *)",
            JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clEnqueueBarrierWithWaitList(CFunction.of("cl_int clEnqueueBarrierWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *)",
            JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clWaitForEvents(CFunction.of("cl_int clWaitForEvents(cl_uint, const cl_event *)", JAVA_INT, JAVA_INT, ADDRESS)),
    clGetEventInfo(CFunction.of("cl_int clGetEventInfo(cl_event, cl_event_info, size_t, void *, size_t *)",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clCreateUserEvent(CFunction.of("cl_event clCreateUserEvent(cl_context, cl_int *)", ADDRESS, ADDRESS, ADDRESS)),
    clSetUserEventStatus(CFunction.of("cl_int clSetUserEventStatus(cl_event, cl_int)", JAVA_INT, ADDRESS, JAVA_INT)),
    clSetEventCallback(CFunction.of("cl_int clSetEventCallback(cl_event, cl_int, void (*)(cl_event, cl_int, void *), void *)",
            JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clRetainEvent(CFunction.of("cl_int clRetainEvent(cl_event)", JAVA_INT, ADDRESS)),
    clReleaseEvent(CFunction.of("cl_int clReleaseEvent(cl_event)", JAVA_INT, ADDRESS));

    private final CFunction c;

    ClFunction(CFunction c) {
        this.c = c;
    }

    /** @return the declaration as {@code CL/cl.h} spells it (parameter names left out) and how FFM calls it */
    @Override
    public CFunction c() {
        return c;
    }
}
