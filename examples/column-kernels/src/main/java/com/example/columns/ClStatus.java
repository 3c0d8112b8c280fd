package com.example.columns;

import java.util.Map;

/** Turns OpenCL status codes into exceptions that name the call and the error. Stateless. */
final class ClStatus {
    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(-1, "CL_DEVICE_NOT_FOUND"),
            Map.entry(-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"),
            Map.entry(-5, "CL_OUT_OF_RESOURCES"),
            Map.entry(-6, "CL_OUT_OF_HOST_MEMORY"),
            Map.entry(-11, "CL_BUILD_PROGRAM_FAILURE"),
            Map.entry(-30, "CL_INVALID_VALUE"),
            Map.entry(-33, "CL_INVALID_DEVICE"),
            Map.entry(-34, "CL_INVALID_CONTEXT"),
            Map.entry(-36, "CL_INVALID_COMMAND_QUEUE"),
            Map.entry(-38, "CL_INVALID_MEM_OBJECT"),
            Map.entry(-44, "CL_INVALID_PROGRAM"),
            Map.entry(-46, "CL_INVALID_KERNEL_NAME"),
            Map.entry(-48, "CL_INVALID_KERNEL"),
            Map.entry(-49, "CL_INVALID_ARG_INDEX"),
            Map.entry(-50, "CL_INVALID_ARG_VALUE"),
            Map.entry(-51, "CL_INVALID_ARG_SIZE"),
            Map.entry(-52, "CL_INVALID_KERNEL_ARGS"),
            Map.entry(-54, "CL_INVALID_WORK_GROUP_SIZE"),
            Map.entry(-57, "CL_INVALID_EVENT_WAIT_LIST"),
            Map.entry(-63, "CL_INVALID_GLOBAL_WORK_SIZE"));

    private ClStatus() {
    }

    /**
     * @param status what {@code call} returned
     * @param call   the OpenCL function
     * @throws ColumnKernelsException if {@code status} is not {@code CL_SUCCESS}
     */
    static void check(int status, ClEntryPoint call) {
        if (status != 0) {
            throw failure(status, call, "");
        }
    }

    /**
     * @param status what {@code call} returned
     * @param call   the OpenCL function
     * @param detail more to say, appended to the message
     * @return an exception naming the call and the error
     */
    static ColumnKernelsException failure(int status, ClEntryPoint call, String detail) {
        String name = NAMES.getOrDefault(status, "OpenCL error");
        return new ColumnKernelsException(call + " failed: " + name + " (" + status + ")" + detail);
    }
}
