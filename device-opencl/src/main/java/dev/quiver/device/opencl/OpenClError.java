package dev.quiver.device.opencl;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The OpenCL error codes, each named exactly as its C macro: every error code {@code CL/cl.h} defines, plus
 * the extension codes an ICD loader or context can return through the calls this backend makes
 * ({@code CL_PLATFORM_NOT_FOUND_KHR}, {@code CL_CONTEXT_TERMINATED_KHR}, from {@code CL/cl_ext.h}).
 * Immutable; safe to share between threads.
 */
public enum OpenClError {
    /** {@code CL_SUCCESS} ({@code 0}): not an error; listed so that every status code has its name. */
    CL_SUCCESS(0, "cl.h"),
    /** {@code CL_DEVICE_NOT_FOUND} ({@code -1}). */
    CL_DEVICE_NOT_FOUND(-1, "cl.h"),
    /** {@code CL_DEVICE_NOT_AVAILABLE} ({@code -2}). */
    CL_DEVICE_NOT_AVAILABLE(-2, "cl.h"),
    /** {@code CL_COMPILER_NOT_AVAILABLE} ({@code -3}). */
    CL_COMPILER_NOT_AVAILABLE(-3, "cl.h"),
    /** {@code CL_MEM_OBJECT_ALLOCATION_FAILURE} ({@code -4}). */
    CL_MEM_OBJECT_ALLOCATION_FAILURE(-4, "cl.h"),
    /** {@code CL_OUT_OF_RESOURCES} ({@code -5}). */
    CL_OUT_OF_RESOURCES(-5, "cl.h"),
    /** {@code CL_OUT_OF_HOST_MEMORY} ({@code -6}). */
    CL_OUT_OF_HOST_MEMORY(-6, "cl.h"),
    /** {@code CL_PROFILING_INFO_NOT_AVAILABLE} ({@code -7}). */
    CL_PROFILING_INFO_NOT_AVAILABLE(-7, "cl.h"),
    /** {@code CL_MEM_COPY_OVERLAP} ({@code -8}). */
    CL_MEM_COPY_OVERLAP(-8, "cl.h"),
    /** {@code CL_IMAGE_FORMAT_MISMATCH} ({@code -9}). */
    CL_IMAGE_FORMAT_MISMATCH(-9, "cl.h"),
    /** {@code CL_IMAGE_FORMAT_NOT_SUPPORTED} ({@code -10}). */
    CL_IMAGE_FORMAT_NOT_SUPPORTED(-10, "cl.h"),
    /** {@code CL_BUILD_PROGRAM_FAILURE} ({@code -11}). */
    CL_BUILD_PROGRAM_FAILURE(-11, "cl.h"),
    /** {@code CL_MAP_FAILURE} ({@code -12}). */
    CL_MAP_FAILURE(-12, "cl.h"),
    /** {@code CL_MISALIGNED_SUB_BUFFER_OFFSET} ({@code -13}). */
    CL_MISALIGNED_SUB_BUFFER_OFFSET(-13, "cl.h"),
    /** {@code CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST} ({@code -14}). */
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST(-14, "cl.h"),
    /** {@code CL_COMPILE_PROGRAM_FAILURE} ({@code -15}). */
    CL_COMPILE_PROGRAM_FAILURE(-15, "cl.h"),
    /** {@code CL_LINKER_NOT_AVAILABLE} ({@code -16}). */
    CL_LINKER_NOT_AVAILABLE(-16, "cl.h"),
    /** {@code CL_LINK_PROGRAM_FAILURE} ({@code -17}). */
    CL_LINK_PROGRAM_FAILURE(-17, "cl.h"),
    /** {@code CL_DEVICE_PARTITION_FAILED} ({@code -18}). */
    CL_DEVICE_PARTITION_FAILED(-18, "cl.h"),
    /** {@code CL_KERNEL_ARG_INFO_NOT_AVAILABLE} ({@code -19}). */
    CL_KERNEL_ARG_INFO_NOT_AVAILABLE(-19, "cl.h"),
    /** {@code CL_INVALID_VALUE} ({@code -30}). */
    CL_INVALID_VALUE(-30, "cl.h"),
    /** {@code CL_INVALID_DEVICE_TYPE} ({@code -31}). */
    CL_INVALID_DEVICE_TYPE(-31, "cl.h"),
    /** {@code CL_INVALID_PLATFORM} ({@code -32}). */
    CL_INVALID_PLATFORM(-32, "cl.h"),
    /** {@code CL_INVALID_DEVICE} ({@code -33}). */
    CL_INVALID_DEVICE(-33, "cl.h"),
    /** {@code CL_INVALID_CONTEXT} ({@code -34}). */
    CL_INVALID_CONTEXT(-34, "cl.h"),
    /** {@code CL_INVALID_QUEUE_PROPERTIES} ({@code -35}). */
    CL_INVALID_QUEUE_PROPERTIES(-35, "cl.h"),
    /** {@code CL_INVALID_COMMAND_QUEUE} ({@code -36}). */
    CL_INVALID_COMMAND_QUEUE(-36, "cl.h"),
    /** {@code CL_INVALID_HOST_PTR} ({@code -37}). */
    CL_INVALID_HOST_PTR(-37, "cl.h"),
    /** {@code CL_INVALID_MEM_OBJECT} ({@code -38}). */
    CL_INVALID_MEM_OBJECT(-38, "cl.h"),
    /** {@code CL_INVALID_IMAGE_FORMAT_DESCRIPTOR} ({@code -39}). */
    CL_INVALID_IMAGE_FORMAT_DESCRIPTOR(-39, "cl.h"),
    /** {@code CL_INVALID_IMAGE_SIZE} ({@code -40}). */
    CL_INVALID_IMAGE_SIZE(-40, "cl.h"),
    /** {@code CL_INVALID_SAMPLER} ({@code -41}). */
    CL_INVALID_SAMPLER(-41, "cl.h"),
    /** {@code CL_INVALID_BINARY} ({@code -42}). */
    CL_INVALID_BINARY(-42, "cl.h"),
    /** {@code CL_INVALID_BUILD_OPTIONS} ({@code -43}). */
    CL_INVALID_BUILD_OPTIONS(-43, "cl.h"),
    /** {@code CL_INVALID_PROGRAM} ({@code -44}). */
    CL_INVALID_PROGRAM(-44, "cl.h"),
    /** {@code CL_INVALID_PROGRAM_EXECUTABLE} ({@code -45}). */
    CL_INVALID_PROGRAM_EXECUTABLE(-45, "cl.h"),
    /** {@code CL_INVALID_KERNEL_NAME} ({@code -46}). */
    CL_INVALID_KERNEL_NAME(-46, "cl.h"),
    /** {@code CL_INVALID_KERNEL_DEFINITION} ({@code -47}). */
    CL_INVALID_KERNEL_DEFINITION(-47, "cl.h"),
    /** {@code CL_INVALID_KERNEL} ({@code -48}). */
    CL_INVALID_KERNEL(-48, "cl.h"),
    /** {@code CL_INVALID_ARG_INDEX} ({@code -49}). */
    CL_INVALID_ARG_INDEX(-49, "cl.h"),
    /** {@code CL_INVALID_ARG_VALUE} ({@code -50}). */
    CL_INVALID_ARG_VALUE(-50, "cl.h"),
    /** {@code CL_INVALID_ARG_SIZE} ({@code -51}). */
    CL_INVALID_ARG_SIZE(-51, "cl.h"),
    /** {@code CL_INVALID_KERNEL_ARGS} ({@code -52}). */
    CL_INVALID_KERNEL_ARGS(-52, "cl.h"),
    /** {@code CL_INVALID_WORK_DIMENSION} ({@code -53}). */
    CL_INVALID_WORK_DIMENSION(-53, "cl.h"),
    /** {@code CL_INVALID_WORK_GROUP_SIZE} ({@code -54}). */
    CL_INVALID_WORK_GROUP_SIZE(-54, "cl.h"),
    /** {@code CL_INVALID_WORK_ITEM_SIZE} ({@code -55}). */
    CL_INVALID_WORK_ITEM_SIZE(-55, "cl.h"),
    /** {@code CL_INVALID_GLOBAL_OFFSET} ({@code -56}). */
    CL_INVALID_GLOBAL_OFFSET(-56, "cl.h"),
    /** {@code CL_INVALID_EVENT_WAIT_LIST} ({@code -57}). */
    CL_INVALID_EVENT_WAIT_LIST(-57, "cl.h"),
    /** {@code CL_INVALID_EVENT} ({@code -58}). */
    CL_INVALID_EVENT(-58, "cl.h"),
    /** {@code CL_INVALID_OPERATION} ({@code -59}). */
    CL_INVALID_OPERATION(-59, "cl.h"),
    /** {@code CL_INVALID_GL_OBJECT} ({@code -60}). */
    CL_INVALID_GL_OBJECT(-60, "cl.h"),
    /** {@code CL_INVALID_BUFFER_SIZE} ({@code -61}). */
    CL_INVALID_BUFFER_SIZE(-61, "cl.h"),
    /** {@code CL_INVALID_MIP_LEVEL} ({@code -62}). */
    CL_INVALID_MIP_LEVEL(-62, "cl.h"),
    /** {@code CL_INVALID_GLOBAL_WORK_SIZE} ({@code -63}). */
    CL_INVALID_GLOBAL_WORK_SIZE(-63, "cl.h"),
    /** {@code CL_INVALID_PROPERTY} ({@code -64}). */
    CL_INVALID_PROPERTY(-64, "cl.h"),
    /** {@code CL_INVALID_IMAGE_DESCRIPTOR} ({@code -65}). */
    CL_INVALID_IMAGE_DESCRIPTOR(-65, "cl.h"),
    /** {@code CL_INVALID_COMPILER_OPTIONS} ({@code -66}). */
    CL_INVALID_COMPILER_OPTIONS(-66, "cl.h"),
    /** {@code CL_INVALID_LINKER_OPTIONS} ({@code -67}). */
    CL_INVALID_LINKER_OPTIONS(-67, "cl.h"),
    /** {@code CL_INVALID_DEVICE_PARTITION_COUNT} ({@code -68}). */
    CL_INVALID_DEVICE_PARTITION_COUNT(-68, "cl.h"),
    /** {@code CL_INVALID_PIPE_SIZE} ({@code -69}). */
    CL_INVALID_PIPE_SIZE(-69, "cl.h"),
    /** {@code CL_INVALID_DEVICE_QUEUE} ({@code -70}). */
    CL_INVALID_DEVICE_QUEUE(-70, "cl.h"),
    /** {@code CL_INVALID_SPEC_ID} ({@code -71}). */
    CL_INVALID_SPEC_ID(-71, "cl.h"),
    /** {@code CL_MAX_SIZE_RESTRICTION_EXCEEDED} ({@code -72}). */
    CL_MAX_SIZE_RESTRICTION_EXCEEDED(-72, "cl.h"),
    /** {@code CL_PLATFORM_NOT_FOUND_KHR} ({@code -1001}): the ICD loader found no platform. */
    CL_PLATFORM_NOT_FOUND_KHR(-1001, "cl_ext.h"),
    /** {@code CL_CONTEXT_TERMINATED_KHR} ({@code -1121}). */
    CL_CONTEXT_TERMINATED_KHR(-1121, "cl_ext.h");

    private static final Map<Integer, OpenClError> BY_CODE = new HashMap<>();

    static {
        for (OpenClError error : values()) {
            BY_CODE.put(error.code, error);
        }
    }

    private final int code;
    private final String header;

    OpenClError(int code, String header) {
        this.code = code;
        this.header = header;
    }

    /** {@return the numeric value, for example {@code -30} for {@code CL_INVALID_VALUE}} */
    public int code() {
        return code;
    }

    /** {@return the header that defines it: {@code "cl.h"} or {@code "cl_ext.h"}} */
    public String header() {
        return header;
    }

    /**
     * {@return the named error, or empty for a code no header this backend knows defines}
     * @param code an OpenCL status code
     */
    public static Optional<OpenClError> of(int code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }

    /**
     * {@return its macro name, or {@code "unknown OpenCL error <code>"}}
     * @param code an OpenCL status code
     */
    public static String nameOf(int code) {
        return of(code).map(Enum::name).orElse("unknown OpenCL error " + code);
    }
}
