package dev.quiver.device.rocm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every HIP runtime entry point this backend calls: the one table from which the bindings are made and
 * against which the header checks run. The constant's name is the symbol looked up in
 * {@code libamdhip64}; {@link #prototype()} is its C declaration in {@code hip_runtime_api.h} (parameter
 * types only, C, {@code __HIP_PLATFORM_AMD__}). None of these is renamed by the HIP headers of ROCm 5 or 6
 * (unlike {@code hipGetDeviceProperties}, which ROCm 6 maps to {@code hipGetDevicePropertiesR0600}, and which
 * this backend therefore does not use).
 *
 * <p>Java carries {@code hipError_t}, {@code int}, {@code unsigned int}, {@code hipDevice_t} and enums as
 * {@code JAVA_INT}; {@code size_t} as {@code JAVA_LONG}; pointers and handles ({@code hipStream_t},
 * {@code hipEvent_t}) as {@code ADDRESS}.
 */
enum HipFunction {
    hipGetDeviceCount("hipError_t hipGetDeviceCount(int *)", JAVA_INT, ADDRESS),
    hipGetErrorName("const char * hipGetErrorName(hipError_t)", ADDRESS, JAVA_INT),
    hipGetErrorString("const char * hipGetErrorString(hipError_t)", ADDRESS, JAVA_INT),
    hipRuntimeGetVersion("hipError_t hipRuntimeGetVersion(int *)", JAVA_INT, ADDRESS),
    hipGetDevice("hipError_t hipGetDevice(int *)", JAVA_INT, ADDRESS),
    hipSetDevice("hipError_t hipSetDevice(int)", JAVA_INT, JAVA_INT),
    hipDeviceGet("hipError_t hipDeviceGet(hipDevice_t *, int)", JAVA_INT, ADDRESS, JAVA_INT),
    hipDeviceGetName("hipError_t hipDeviceGetName(char *, int, hipDevice_t)", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
    hipDeviceTotalMem("hipError_t hipDeviceTotalMem(size_t *, hipDevice_t)", JAVA_INT, ADDRESS, JAVA_INT),
    hipMalloc("hipError_t hipMalloc(void **, size_t)", JAVA_INT, ADDRESS, JAVA_LONG),
    hipFree("hipError_t hipFree(void *)", JAVA_INT, ADDRESS),
    hipHostMalloc("hipError_t hipHostMalloc(void **, size_t, unsigned int)", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
    hipHostFree("hipError_t hipHostFree(void *)", JAVA_INT, ADDRESS),
    hipMemcpyAsync("hipError_t hipMemcpyAsync(void *, const void *, size_t, hipMemcpyKind, hipStream_t)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS),
    hipStreamCreateWithFlags("hipError_t hipStreamCreateWithFlags(hipStream_t *, unsigned int)", JAVA_INT, ADDRESS, JAVA_INT),
    hipStreamSynchronize("hipError_t hipStreamSynchronize(hipStream_t)", JAVA_INT, ADDRESS),
    hipStreamDestroy("hipError_t hipStreamDestroy(hipStream_t)", JAVA_INT, ADDRESS),
    hipStreamWaitEvent("hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int)", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT),
    hipEventCreateWithFlags("hipError_t hipEventCreateWithFlags(hipEvent_t *, unsigned int)", JAVA_INT, ADDRESS, JAVA_INT),
    hipEventRecord("hipError_t hipEventRecord(hipEvent_t, hipStream_t)", JAVA_INT, ADDRESS, ADDRESS),
    hipEventSynchronize("hipError_t hipEventSynchronize(hipEvent_t)", JAVA_INT, ADDRESS),
    hipEventQuery("hipError_t hipEventQuery(hipEvent_t)", JAVA_INT, ADDRESS),
    hipEventDestroy("hipError_t hipEventDestroy(hipEvent_t)", JAVA_INT, ADDRESS),
    hipPointerGetAttributes("hipError_t hipPointerGetAttributes(hipPointerAttribute_t *, const void *)", JAVA_INT, ADDRESS, ADDRESS);

    private final String prototype;
    private final FunctionDescriptor descriptor;

    HipFunction(String prototype, MemoryLayout result, MemoryLayout... parameters) {
        this.prototype = prototype;
        this.descriptor = FunctionDescriptor.of(result, parameters);
    }

    /** @return the C declaration, parameter types only */
    String prototype() {
        return prototype;
    }

    /** @return how Java calls it */
    FunctionDescriptor descriptor() {
        return descriptor;
    }
}
