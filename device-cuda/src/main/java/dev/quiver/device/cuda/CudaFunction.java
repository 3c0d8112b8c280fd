package dev.quiver.device.cuda;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every CUDA driver entry point this backend calls: the one table from which the bindings are made and
 * against which the header checks run.
 *
 * <p>The constant's name is the name passed to {@code cuGetProcAddress}. {@link #variant()} is the CUDA
 * version that introduced the ABI variant we call: the {@code N} of {@code PFN_<name>_vN} in
 * {@code cudaTypedefs.h}. Asking {@code cuGetProcAddress} for the name with
 * {@link CudaDriver#TARGET_VERSION} returns the newest variant not newer than that version, which must be
 * this one; {@link #c()} is its C declaration (parameter types only), naming the versioned symbol
 * that {@code cuda.h} declares for it (for example {@code cuMemAlloc} is {@code cuMemAlloc_v2}, variant
 * 3020). Bare names that {@code cuda.h} {@code #define}s to a {@code _v2}/{@code _v3} symbol are never
 * looked up in the library: only {@link #cuGetProcAddress} is, by its versioned symbol
 * {@code cuGetProcAddress_v2}. All entries use the legacy default stream
 * ({@code CU_GET_PROC_ADDRESS_LEGACY_STREAM}), never the {@code _ptsz}/{@code _ptds} variants.
 *
 * <p>Java carries {@code CUresult}, {@code int}, {@code unsigned int} and enums as {@code JAVA_INT};
 * {@code size_t}, {@code CUdeviceptr} and {@code cuuint64_t} as {@code JAVA_LONG}; pointers and handles
 * ({@code CUcontext}, {@code CUstream}, {@code CUevent}) as {@code ADDRESS}. {@code CUdevice} is an
 * {@code int} ordinal handle; {@code CUipcMemHandle} travels by value as {@link CudaIpc#MEM_HANDLE}, {@code CUipcEventHandle} as
 * {@link CudaIpc#EVENT_HANDLE}.
 */
enum CudaFunction implements CFunction.Table {
    cuGetProcAddress(12000, CFunction.of("CUresult cuGetProcAddress_v2(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS)),
    cuInit(2000, CFunction.of("CUresult cuInit(unsigned int)", JAVA_INT, JAVA_INT)),
    cuDriverGetVersion(2020, CFunction.of("CUresult cuDriverGetVersion(int *)", JAVA_INT, ADDRESS)),
    cuGetErrorName(6000, CFunction.of("CUresult cuGetErrorName(CUresult, const char **)", JAVA_INT, JAVA_INT, ADDRESS)),
    cuGetErrorString(6000, CFunction.of("CUresult cuGetErrorString(CUresult, const char **)", JAVA_INT, JAVA_INT, ADDRESS)),
    cuDeviceGetCount(2000, CFunction.of("CUresult cuDeviceGetCount(int *)", JAVA_INT, ADDRESS)),
    cuDeviceGet(2000, CFunction.of("CUresult cuDeviceGet(CUdevice *, int)", JAVA_INT, ADDRESS, JAVA_INT)),
    cuDeviceGetName(2000, CFunction.of("CUresult cuDeviceGetName(char *, int, CUdevice)", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)),
    cuDeviceTotalMem(3020, CFunction.of("CUresult cuDeviceTotalMem_v2(size_t *, CUdevice)", JAVA_INT, ADDRESS, JAVA_INT)),
    cuDeviceGetAttribute(2000, CFunction.of("CUresult cuDeviceGetAttribute(int *, CUdevice_attribute, CUdevice)", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)),
    cuDevicePrimaryCtxRetain(7000, CFunction.of("CUresult cuDevicePrimaryCtxRetain(CUcontext *, CUdevice)", JAVA_INT, ADDRESS, JAVA_INT)),
    cuCtxPushCurrent(4000, CFunction.of("CUresult cuCtxPushCurrent_v2(CUcontext)", JAVA_INT, ADDRESS)),
    cuCtxPopCurrent(4000, CFunction.of("CUresult cuCtxPopCurrent_v2(CUcontext *)", JAVA_INT, ADDRESS)),
    cuCtxGetDevice(2000, CFunction.of("CUresult cuCtxGetDevice(CUdevice *)", JAVA_INT, ADDRESS)),
    cuMemAlloc(3020, CFunction.of("CUresult cuMemAlloc_v2(CUdeviceptr *, size_t)", JAVA_INT, ADDRESS, JAVA_LONG)),
    cuMemFree(3020, CFunction.of("CUresult cuMemFree_v2(CUdeviceptr)", JAVA_INT, JAVA_LONG)),
    cuMemAllocHost(3020, CFunction.of("CUresult cuMemAllocHost_v2(void **, size_t)", JAVA_INT, ADDRESS, JAVA_LONG)),
    cuMemFreeHost(2000, CFunction.of("CUresult cuMemFreeHost(void *)", JAVA_INT, ADDRESS)),
    cuMemAllocManaged(6000, CFunction.of("CUresult cuMemAllocManaged(CUdeviceptr *, size_t, unsigned int)", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT)),
    cuMemcpyHtoDAsync(3020, CFunction.of("CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr, const void *, size_t, CUstream)",
            JAVA_INT, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS)),
    cuMemcpyDtoHAsync(3020, CFunction.of("CUresult cuMemcpyDtoHAsync_v2(void *, CUdeviceptr, size_t, CUstream)",
            JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS)),
    cuMemcpyDtoDAsync(3020, CFunction.of("CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr, CUdeviceptr, size_t, CUstream)",
            JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS)),
    cuStreamCreate(2000, CFunction.of("CUresult cuStreamCreate(CUstream *, unsigned int)", JAVA_INT, ADDRESS, JAVA_INT)),
    cuStreamSynchronize(2000, CFunction.of("CUresult cuStreamSynchronize(CUstream)", JAVA_INT, ADDRESS)),
    cuStreamDestroy(4000, CFunction.of("CUresult cuStreamDestroy_v2(CUstream)", JAVA_INT, ADDRESS)),
    cuStreamWaitEvent(3020, CFunction.of("CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned int)", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
    cuStreamGetCtx(9020, CFunction.of("CUresult cuStreamGetCtx(CUstream, CUcontext *)", JAVA_INT, ADDRESS, ADDRESS)),
    cuEventCreate(2000, CFunction.of("CUresult cuEventCreate(CUevent *, unsigned int)", JAVA_INT, ADDRESS, JAVA_INT)),
    cuEventRecord(2000, CFunction.of("CUresult cuEventRecord(CUevent, CUstream)", JAVA_INT, ADDRESS, ADDRESS)),
    cuEventSynchronize(2000, CFunction.of("CUresult cuEventSynchronize(CUevent)", JAVA_INT, ADDRESS)),
    cuEventQuery(2000, CFunction.of("CUresult cuEventQuery(CUevent)", JAVA_INT, ADDRESS)),
    cuEventDestroy(4000, CFunction.of("CUresult cuEventDestroy_v2(CUevent)", JAVA_INT, ADDRESS)),
    cuPointerGetAttribute(4000, CFunction.of("CUresult cuPointerGetAttribute(void *, CUpointer_attribute, CUdeviceptr)",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG)),
    cuMemGetAddressRange(3020, CFunction.of("CUresult cuMemGetAddressRange_v2(CUdeviceptr *, size_t *, CUdeviceptr)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG)),
    cuIpcGetMemHandle(4010, CFunction.of("CUresult cuIpcGetMemHandle(CUipcMemHandle *, CUdeviceptr)", JAVA_INT, ADDRESS, JAVA_LONG)),
    cuIpcOpenMemHandle(11000, CFunction.of("CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *, CUipcMemHandle, unsigned int)",
            JAVA_INT, ADDRESS, CudaIpc.MEM_HANDLE, JAVA_INT)),
    cuIpcCloseMemHandle(4010, CFunction.of("CUresult cuIpcCloseMemHandle(CUdeviceptr)", JAVA_INT, JAVA_LONG)),
    cuIpcGetEventHandle(4010, CFunction.of("CUresult cuIpcGetEventHandle(CUipcEventHandle *, CUevent)", JAVA_INT, ADDRESS, ADDRESS)),
    cuIpcOpenEventHandle(4010, CFunction.of("CUresult cuIpcOpenEventHandle(CUevent *, CUipcEventHandle)",
            JAVA_INT, ADDRESS, CudaIpc.EVENT_HANDLE));

    private final int variant;
    private final CFunction c;

    CudaFunction(int variant, CFunction c) {
        this.variant = variant;
        this.c = c;
    }

    /** @return the CUDA version that introduced the ABI variant called, as in {@code PFN_<name>_v<variant>} */
    int variant() {
        return variant;
    }

    @Override
    public CFunction c() {
        return c;
    }
}
