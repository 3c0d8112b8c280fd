package dev.quiver.device.cuda;

import dev.quiver.device.ffm.DriverDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_INVALID_CONTEXT;
import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_INVALID_HANDLE;
import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_NOT_READY;
import static dev.quiver.device.cuda.CudaConstants.CUDA_SUCCESS;
import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * One kind of memory ({@link CudaMemory}) of one CUDA device, in one context.
 *
 * <p><b>Handles.</b> Pointers are {@code CUdeviceptr} values as {@link MemorySegment#ofAddress} (zero-length
 * for device memory; host-accessible segments of the allocated size for pinned and managed memory).
 * Streams are {@code CUstream}s; {@link MemorySegment#NULL} is the legacy default stream, which
 * synchronises with every blocking stream of the context. Events are {@code CUevent}s made with
 * {@code CU_EVENT_DISABLE_TIMING} and pooled ({@link DriverDevice}); an array's {@code sync_event} points to one ({@code CUevent*}, which is
 * the runtime's {@code cudaEvent_t*}), and the array owns both.
 *
 * <p><b>Other processes.</b> Device memory ({@code cuMemAlloc}) is exported with CUDA IPC (see
 * {@link CudaIpc}); pinned and managed memory have no inter-process mechanism. Events of the device-memory
 * kind reach other processes by CUDA IPC too (see {@link CudaIpc}) where
 * {@code CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED} says so: {@link #recordInterProcessEvent} makes a new
 * {@code CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING} event, never a pooled one, and {@link #destroyEvent}
 * destroys it and events opened from a peer's handle with {@code cuEventDestroy}.
 *
 * <p><b>Ordering.</b> Copies are {@code cuMemcpy*Async} on the caller's stream and may return before they
 * complete (copies from pageable host memory may complete earlier, as CUDA documents).
 *
 * <p><b>Native handles and adoption.</b> {@link #nativeHandles()} gives the {@code CUdevice} (its ordinal
 * handle, as an address value) and the {@code CUcontext}, borrowed. {@link #adoptStream} accepts a
 * {@code CUstream} of this device's context (checked with {@code cuStreamGetCtx}) and returns it unchanged;
 * {@link #adoptEvent} accepts a live {@code CUevent} (checked with {@code cuEventQuery}; CUDA cannot tell an
 * event's context) and returns it unchanged. Forgetting either destroys it only when asked.
 *
 * <p><b>Threading.</b> All methods may be called from any thread: each pushes the device's context for the
 * duration of the call and pops it, leaving the thread's context stack as it was.
 */
final class CudaDevice extends DriverDevice<CudaFunction> {
    /** CUDA aligns every allocation of these allocators to at least this many bytes. */
    static final long ALIGNMENT = 256;

    private final CudaDriver driver;
    private final CudaContext context;
    private final CudaMemory memory;
    private final String capability;
    private final Map<String, MemorySegment> handles;
    /** What the device is and its multiprocessors, read on first use. */
    private volatile dev.quiver.spi.HardwareKind hardwareKind;
    private static final int UNKNOWN_UNITS = Integer.MIN_VALUE;
    private volatile int computeUnits = UNKNOWN_UNITS;

    CudaDevice(CudaDriver driver, CudaContext context, CudaMemory memory, String name, long totalMemory, String capability) {
        super(memory, CudaMemory.HOST, context.ordinal(), name, totalMemory, ALIGNMENT, "CUDA", driver.calls,
                "the legacy default stream (NULL)");
        this.driver = driver;
        this.context = context;
        this.memory = memory;
        this.capability = capability;
        Map<String, MemorySegment> named = new LinkedHashMap<>();
        named.put("CUdevice", MemorySegment.ofAddress(context.device()));
        named.put("CUcontext", context.handle());
        this.handles = Collections.unmodifiableMap(named);
    }

    /** Pushes the device's context for the duration of {@code work} and pops it. */
    @Override
    protected <T> T call(Supplier<T> work) {
        return context.call(work);
    }

    CudaContext context() {
        return context;
    }

    CudaDriver driver() {
        return driver;
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("compute capability", capability);
        p.put("driver", "CUDA " + CudaDriver.version(driver.version()));
        p.put("allocator", memory.kind.allocator());
        p.put("context", context.isPrimary() ? "primary" : "adopted 0x" + Long.toHexString(context.handle().address()));
        return p;
    }

    /**
     * @return an integrated GPU where {@code CU_DEVICE_ATTRIBUTE_INTEGRATED} says so, else a discrete one;
     *         {@link dev.quiver.spi.HardwareKind#OTHER} where the driver does not answer
     */
    @Override
    public dev.quiver.spi.HardwareKind hardwareKind() {
        dev.quiver.spi.HardwareKind kind = hardwareKind;
        if (kind == null) {
            try {
                kind = driver.attribute(CudaConstants.CU_DEVICE_ATTRIBUTE_INTEGRATED, context.device()) != 0
                        ? dev.quiver.spi.HardwareKind.INTEGRATED_GPU : dev.quiver.spi.HardwareKind.DISCRETE_GPU;
            } catch (CudaException e) {
                kind = dev.quiver.spi.HardwareKind.OTHER;
            }
            hardwareKind = kind;   // a fact of the device: asked once (racing threads compute the same)
        }
        return kind;
    }

    /** @return {@code CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}, or -1 where the driver does not answer */
    @Override
    public int computeUnits() {
        int units = computeUnits;
        if (units == UNKNOWN_UNITS) {
            try {
                units = driver.attribute(CudaConstants.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, context.device());
            } catch (CudaException e) {
                units = -1;
            }
            computeUnits = units;
        }
        return units;
    }

    /** @return the CUDA driver library ({@code libcuda.so.1}, or {@code quiver.cuda.library}) */
    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return java.util.Optional.of(driver.library());
    }

    // ---- memory of other processes ------------------------------------------------------------

    /** {@return CUDA IPC for {@code cuMemAlloc} memory; nothing for the other kinds} */
    @Override
    protected java.util.Optional<dev.quiver.device.ffm.VendorIpc> ipc() {
        return memory == CudaMemory.DEVICE ? java.util.Optional.of(new CudaIpc(driver, context)) : java.util.Optional.empty();
    }

    /**
     * {@return CUDA IPC events for the device-memory kind where {@code CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED}
     * is set; nothing for the other kinds, or where the driver does not answer}
     */
    @Override
    protected java.util.Optional<dev.quiver.device.ffm.VendorIpcEvents> findIpcEvents() {
        try {
            return memory == CudaMemory.DEVICE
                    && driver.attribute(CudaConstants.CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, context.device()) != 0
                    ? java.util.Optional.of(new CudaIpc(driver, context)) : java.util.Optional.empty();
        } catch (CudaException e) {
            return java.util.Optional.empty();
        }
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        long size = source.byteSize();
        if (size == 0) {
            return;
        }
        long to = destination.address() + destinationOffset;
        run(() -> driver.api.check(CudaFunction.cuMemcpyHtoDAsync, h -> (int) h.invokeExact(to, source, size, stream)));
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        long size = destination.byteSize();
        if (size == 0) {
            return;
        }
        long from = source.address() + sourceOffset;
        run(() -> driver.api.check(CudaFunction.cuMemcpyDtoHAsync, h -> (int) h.invokeExact(destination, from, size, stream)));
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        if (byteCount == 0) {
            return;
        }
        long from = source.address() + sourceOffset;
        long to = destination.address() + destinationOffset;
        run(() -> driver.api.check(CudaFunction.cuMemcpyDtoDAsync, h -> (int) h.invokeExact(to, from, byteCount, stream)));
    }

    // ---- events -------------------------------------------------------------------------------

    /** {@code cuEventSynchronize}, which needs no current context; pushed only if the driver asks for one. */
    @Override
    protected int synchronizeEvent(MemorySegment event) {
        return outsideContext(driver.calls::synchronizeEvent, event);
    }

    /** {@code cuEventQuery}, which needs no current context; pushed only if the driver asks for one. */
    @Override
    protected int queryEvent(MemorySegment event) {
        return outsideContext(driver.calls::queryEvent, event);
    }

    private int outsideContext(ToIntFunction<MemorySegment> call, MemorySegment event) {
        int result = call.applyAsInt(event);
        return result == CUDA_ERROR_INVALID_CONTEXT ? context.call(() -> call.applyAsInt(event)) : result;
    }

    // ---- native handles and adoption ----------------------------------------------------------

    /** @return {@code CUdevice} (the ordinal handle as an address value) and {@code CUcontext}, borrowed */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return handles;
    }

    /**
     * @param nativeStream a {@code CUstream} of this device's context, or NULL for the legacy default stream
     * @return {@code nativeStream}
     * @throws IllegalArgumentException if it is not a live stream ({@code CUDA_ERROR_INVALID_HANDLE}) or
     *                                  {@code cuStreamGetCtx} says it belongs to another context
     * @throws CudaException            if the driver fails otherwise
     */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        MemorySegment owner;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int result = call(() -> driver.api.result(CudaFunction.cuStreamGetCtx, h -> (int) h.invokeExact(nativeStream, out)));
            refuseUnknownHandle(result, CudaFunction.cuStreamGetCtx, nativeStream, "CUstream");
            owner = out.get(ADDRESS, 0);
        }
        if (owner.address() != context.handle().address()) {
            throw new IllegalArgumentException("CUstream 0x" + Long.toHexString(nativeStream.address()) + " belongs to CUcontext 0x"
                    + Long.toHexString(owner.address()) + ", not to the " + context + " of " + this);
        }
        return nativeStream;
    }

    /**
     * @param nativeEvent a live {@code CUevent}, made in this device's context
     * @return {@code nativeEvent}
     * @throws IllegalArgumentException if it is NULL or {@code cuEventQuery} does not know it
     */
    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        if (nativeEvent.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("CUevent is NULL");
        }
        int result = call(() -> driver.api.result(CudaFunction.cuEventQuery, h -> (int) h.invokeExact(nativeEvent)));
        if (result != CUDA_ERROR_NOT_READY) {
            refuseUnknownHandle(result, CudaFunction.cuEventQuery, nativeEvent, "CUevent");
        }
        return nativeEvent;
    }

    /** Throws {@link IllegalArgumentException} for an invalid handle, the driver's exception for other failures. */
    private void refuseUnknownHandle(int result, CudaFunction call, MemorySegment handle, String type) {
        if (result == CUDA_ERROR_INVALID_HANDLE) {
            throw new IllegalArgumentException("0x" + Long.toHexString(handle.address()) + " is not a live " + type + ": "
                    + driver.api.failure(call, result).getMessage());
        }
        if (result != CUDA_SUCCESS) {
            throw driver.api.failure(call, result);
        }
    }
}
