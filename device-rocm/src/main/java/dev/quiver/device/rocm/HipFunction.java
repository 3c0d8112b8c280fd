package dev.quiver.device.rocm;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every HIP runtime entry point this backend calls: the one table from which the bindings are made and
 * against which the header checks run. The constant's name is the symbol looked up in
 * {@code libamdhip64}; {@link #c()} is its C declaration in {@code hip_runtime_api.h} (parameter
 * types only, C, {@code __HIP_PLATFORM_AMD__}). None of these is renamed by the HIP headers of ROCm 5 or 6
 * (unlike {@code hipGetDeviceProperties}, which ROCm 6 maps to {@code hipGetDevicePropertiesR0600}, and which
 * this backend therefore does not use).
 *
 * <p>Java carries {@code hipError_t}, {@code int}, {@code unsigned int}, {@code hipDevice_t} and enums as
 * {@code JAVA_INT}; {@code size_t} as {@code JAVA_LONG}; pointers and handles ({@code hipStream_t},
 * {@code hipEvent_t}, {@code hipDeviceptr_t}) as {@code ADDRESS}; {@code hipIpcMemHandle_t} travels by value as
 * {@link HipIpc#MEM_HANDLE}, {@code hipIpcEventHandle_t} as {@link HipIpc#EVENT_HANDLE}.
 */
enum HipFunction implements CFunction.Table {
    hipGetDeviceCount(CFunction.of("hipError_t hipGetDeviceCount(int *)", JAVA_INT, ADDRESS)),
    hipGetErrorName(CFunction.of("const char * hipGetErrorName(hipError_t)", ADDRESS, JAVA_INT)),
    hipGetErrorString(CFunction.of("const char * hipGetErrorString(hipError_t)", ADDRESS, JAVA_INT)),
    hipRuntimeGetVersion(CFunction.of("hipError_t hipRuntimeGetVersion(int *)", JAVA_INT, ADDRESS)),
    hipGetDevice(CFunction.of("hipError_t hipGetDevice(int *)", JAVA_INT, ADDRESS)),
    hipSetDevice(CFunction.of("hipError_t hipSetDevice(int)", JAVA_INT, JAVA_INT)),
    hipDeviceGet(CFunction.of("hipError_t hipDeviceGet(hipDevice_t *, int)", JAVA_INT, ADDRESS, JAVA_INT)),
    hipDeviceGetName(CFunction.of("hipError_t hipDeviceGetName(char *, int, hipDevice_t)", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)),
    hipDeviceTotalMem(CFunction.of("hipError_t hipDeviceTotalMem(size_t *, hipDevice_t)", JAVA_INT, ADDRESS, JAVA_INT)),
    hipMalloc(CFunction.of("hipError_t hipMalloc(void **, size_t)", JAVA_INT, ADDRESS, JAVA_LONG)),
    hipFree(CFunction.of("hipError_t hipFree(void *)", JAVA_INT, ADDRESS)),
    hipHostMalloc(CFunction.of("hipError_t hipHostMalloc(void **, size_t, unsigned int)", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT)),
    hipHostFree(CFunction.of("hipError_t hipHostFree(void *)", JAVA_INT, ADDRESS)),
    hipMemcpyAsync(CFunction.of("hipError_t hipMemcpyAsync(void *, const void *, size_t, hipMemcpyKind, hipStream_t)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS)),
    hipStreamCreateWithFlags(CFunction.of("hipError_t hipStreamCreateWithFlags(hipStream_t *, unsigned int)", JAVA_INT, ADDRESS, JAVA_INT)),
    hipStreamSynchronize(CFunction.of("hipError_t hipStreamSynchronize(hipStream_t)", JAVA_INT, ADDRESS)),
    hipStreamQuery(CFunction.of("hipError_t hipStreamQuery(hipStream_t)", JAVA_INT, ADDRESS)),
    hipStreamDestroy(CFunction.of("hipError_t hipStreamDestroy(hipStream_t)", JAVA_INT, ADDRESS)),
    hipStreamWaitEvent(CFunction.of("hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int)", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
    hipEventCreateWithFlags(CFunction.of("hipError_t hipEventCreateWithFlags(hipEvent_t *, unsigned int)", JAVA_INT, ADDRESS, JAVA_INT)),
    hipEventRecord(CFunction.of("hipError_t hipEventRecord(hipEvent_t, hipStream_t)", JAVA_INT, ADDRESS, ADDRESS)),
    hipEventSynchronize(CFunction.of("hipError_t hipEventSynchronize(hipEvent_t)", JAVA_INT, ADDRESS)),
    hipEventQuery(CFunction.of("hipError_t hipEventQuery(hipEvent_t)", JAVA_INT, ADDRESS)),
    hipEventDestroy(CFunction.of("hipError_t hipEventDestroy(hipEvent_t)", JAVA_INT, ADDRESS)),
    hipPointerGetAttributes(CFunction.of("hipError_t hipPointerGetAttributes(hipPointerAttribute_t *, const void *)", JAVA_INT, ADDRESS, ADDRESS)),
    hipMemGetAddressRange(CFunction.of("hipError_t hipMemGetAddressRange(hipDeviceptr_t *, size_t *, hipDeviceptr_t)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    hipIpcGetMemHandle(CFunction.of("hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *, void *)", JAVA_INT, ADDRESS, ADDRESS)),
    hipIpcOpenMemHandle(CFunction.of("hipError_t hipIpcOpenMemHandle(void **, hipIpcMemHandle_t, unsigned int)",
            JAVA_INT, ADDRESS, HipIpc.MEM_HANDLE, JAVA_INT)),
    hipIpcCloseMemHandle(CFunction.of("hipError_t hipIpcCloseMemHandle(void *)", JAVA_INT, ADDRESS)),
    hipIpcGetEventHandle(CFunction.of("hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *, hipEvent_t)", JAVA_INT, ADDRESS, ADDRESS)),
    hipIpcOpenEventHandle(CFunction.of("hipError_t hipIpcOpenEventHandle(hipEvent_t *, hipIpcEventHandle_t)",
            JAVA_INT, ADDRESS, HipIpc.EVENT_HANDLE));

    private final CFunction c;

    HipFunction(CFunction c) {
        this.c = c;
    }

    @Override
    public CFunction c() {
        return c;
    }
}
