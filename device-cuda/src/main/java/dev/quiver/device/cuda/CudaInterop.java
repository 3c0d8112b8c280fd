package dev.quiver.device.cuda;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.FixedProvider;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_INVALID_VALUE;
import static dev.quiver.device.cuda.CudaConstants.CUDA_SUCCESS;
import static dev.quiver.device.cuda.CudaConstants.CU_MEMORYTYPE_DEVICE;
import static dev.quiver.device.cuda.CudaConstants.CU_MEMORYTYPE_HOST;
import static dev.quiver.device.cuda.CudaConstants.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL;
import static dev.quiver.device.cuda.CudaConstants.CU_POINTER_ATTRIBUTE_IS_MANAGED;
import static dev.quiver.device.cuda.CudaConstants.CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Working with CUDA objects that other libraries made (the CUDA runtime, cuDF, PyTorch through a bridge,
 * jcuda): find out where a foreign pointer lives, and use an application's own {@code CUcontext} and
 * {@code CUstream}, given as raw addresses.
 *
 * <p>Nothing here takes ownership: adopted contexts and streams stay owned by the application, which must
 * keep them alive (not destroy them) while Quiver uses them. Uses the driver of the provider it was made
 * from, loading it if needed. Thread-safe.
 */
public final class CudaInterop {
    private final CudaProvider provider;

    /**
     * Interoperation through the driver of {@code provider}.
     *
     * @param provider the provider whose driver library to use
     */
    public CudaInterop(CudaProvider provider) {
        this.provider = provider;
    }

    /** The provider's driver, loaded if needed; a {@link BackendUnavailableException} says why it cannot be used. */
    private CudaDriver driver() {
        return provider.driver();
    }

    /** The primary context of the first device; a {@link BackendUnavailableException} says why there is none. */
    private CudaContext anyContext() {
        return driver().devices().getFirst().context();
    }

    /**
     * Asks the driver ({@code cuPointerGetAttribute}) where a pointer's memory lives.
     *
     * @param pointer any address, for example a buffer of an imported array
     * @return the Arrow device of the memory, or empty if CUDA does not know the pointer (plain host memory)
     * @throws CudaException if the driver fails for another reason
     */
    public Optional<CudaPointerInfo> describe(MemorySegment pointer) {
        CudaDriver driver = driver();
        return anyContext().call(() -> {
            int[] memoryType = new int[1];
            int result = attribute(driver, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer, memoryType);
            if (result == CUDA_ERROR_INVALID_VALUE) {
                return Optional.empty();
            }
            if (result != CUDA_SUCCESS) {
                throw driver.api.failure(CudaFunction.cuPointerGetAttribute, result);
            }
            int[] managed = new int[1];
            int[] ordinal = new int[1];
            check(driver, attribute(driver, CU_POINTER_ATTRIBUTE_IS_MANAGED, pointer, managed));
            check(driver, attribute(driver, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, pointer, ordinal));
            int deviceType;
            if (managed[0] != 0) {
                deviceType = DeviceTypeCodes.CUDA_MANAGED;
            } else if (memoryType[0] == CU_MEMORYTYPE_HOST) {
                deviceType = DeviceTypeCodes.CUDA_HOST;
            } else if (memoryType[0] == CU_MEMORYTYPE_DEVICE) {
                deviceType = DeviceTypeCodes.CUDA;
            } else {
                throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address())
                        + " is CUDA memory of type " + memoryType[0] + " (CUmemorytype), which is not an Arrow buffer");
            }
            return Optional.of(new CudaPointerInfo(deviceType, ordinal[0]));
        });
    }

    private static void check(CudaDriver driver, int result) {
        if (result != CUDA_SUCCESS) {
            throw driver.api.failure(CudaFunction.cuPointerGetAttribute, result);
        }
    }

    private static int attribute(CudaDriver driver, int attribute, MemorySegment pointer, int[] value) {
        try (Arena arena = Arena.ofConfined()) {
            // Attributes are written as unsigned int, int or bool: a zeroed 8-byte slot reads right for all.
            MemorySegment out = arena.allocate(JAVA_LONG);
            long address = pointer.address();
            int result = driver.api.result(CudaFunction.cuPointerGetAttribute, h -> (int) h.invokeExact(out, attribute, address));
            value[0] = out.get(JAVA_INT, 0);
            return result;
        }
    }

    /**
     * A provider serving the device of an application's context: the same three kinds of memory, working in
     * {@code context} instead of the primary context. Use it with {@code dev.quiver.plugin.Backends.devices(List.of(provider), ...)}.
     *
     * @param context a live {@code CUcontext}, owned by the application, which keeps it alive while the
     *                returned provider's devices are used
     * @return a provider named {@code cuda}, not registered as a service
     * @throws CudaException if the driver rejects the context
     */
    public DeviceProvider adoptContext(long context) {
        if (context == 0) {
            throw new IllegalArgumentException("CUcontext is NULL");
        }
        CudaDriver driver = driver();
        MemorySegment handle = MemorySegment.ofAddress(context);
        CudaContext probe = new CudaContext(driver, handle, -1, -1, false);
        int device = probe.call(() -> driver.api.intOut(CudaFunction.cuCtxGetDevice));
        CudaContext adopted = new CudaContext(driver, handle, device, ordinalOf(driver, device), false);
        List<BackendDevice> devices = List.copyOf(driver.devicesOf(adopted));
        return new FixedProvider(provider.name(), provider.deviceTypes(), ProbeResult.available(devices));
    }

    private static int ordinalOf(CudaDriver driver, int device) {
        int count = driver.api.intOut(CudaFunction.cuDeviceGetCount);
        for (int ordinal = 0; ordinal < count; ordinal++) {
            if (driver.deviceHandle(ordinal) == device) {
                return ordinal;
            }
        }
        throw new IllegalStateException("CUdevice " + device + " is not among the driver's " + count + " devices");
    }

    /**
     * Checks that an application's stream belongs to a CUDA device's context ({@code cuStreamGetCtx}) and
     * returns it as a stream handle for that device's {@link BackendDevice} methods: the same as
     * {@link dev.quiver.spi.NativeAdoption#adoptStream}, given a raw address.
     *
     * @param device a device of this backend (from the system devices or {@link #adoptContext})
     * @param stream a live {@code CUstream}, owned by the application: Quiver never destroys it
     * @return the stream handle, borrowed
     * @throws IllegalArgumentException if the device is not a CUDA device or the stream is of another context
     */
    public MemorySegment adoptStream(BackendDevice device, long stream) {
        if (!(device instanceof CudaDevice cuda)) {
            throw new IllegalArgumentException(device + " is not a device of the CUDA backend");
        }
        return cuda.adoptStream(MemorySegment.ofAddress(stream));
    }
}
