package com.example.columns;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The OpenCL functions this library calls, each with its C declaration (parameter types only, as in
 * {@code CL/cl.h}; {@code build_notify} stands for the {@code clBuildProgram} callback type) and the FFM
 * descriptor that binds it. Immutable; the tests compile the declarations against the OpenCL headers.
 */
enum ClEntryPoint {
    clCreateCommandQueue("cl_command_queue clCreateCommandQueue(cl_context, cl_device_id, cl_command_queue_properties, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS)),
    clCreateProgramWithSource("cl_program clCreateProgramWithSource(cl_context, cl_uint, const char **, const size_t *, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    clBuildProgram("cl_int clBuildProgram(cl_program, cl_uint, const cl_device_id *, const char *, build_notify, void *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    clGetProgramBuildInfo("cl_int clGetProgramBuildInfo(cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)),
    clCreateKernel("cl_kernel clCreateKernel(cl_program, const char *, cl_int *)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    clSetKernelArg("cl_int clSetKernelArg(cl_kernel, cl_uint, size_t, const void *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS)),
    clEnqueueNDRangeKernel("cl_int clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    clReleaseCommandQueue("cl_int clReleaseCommandQueue(cl_command_queue)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clReleaseKernel("cl_int clReleaseKernel(cl_kernel)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    clReleaseProgram("cl_int clReleaseProgram(cl_program)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private final String declaration;
    private final FunctionDescriptor descriptor;

    ClEntryPoint(String declaration, FunctionDescriptor descriptor) {
        this.declaration = declaration;
        this.descriptor = descriptor;
    }

    /** @return the C declaration, parameter types only */
    String declaration() {
        return declaration;
    }

    /** @return the descriptor the binding uses */
    FunctionDescriptor descriptor() {
        return descriptor;
    }
}
