package dev.quiver.device.rocm;

import dev.quiver.device.ffm.DriverDevice;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import static dev.quiver.device.rocm.HipConstants.hipErrorContextIsDestroyed;
import static dev.quiver.device.rocm.HipConstants.hipErrorInvalidDevice;
import static dev.quiver.device.rocm.HipConstants.hipErrorInvalidHandle;
import static dev.quiver.device.rocm.HipConstants.hipErrorNotReady;
import static dev.quiver.device.rocm.HipConstants.hipMemcpyDeviceToDevice;
import static dev.quiver.device.rocm.HipConstants.hipMemcpyDeviceToHost;
import static dev.quiver.device.rocm.HipConstants.hipMemcpyHostToDevice;
import static dev.quiver.device.rocm.HipConstants.hipSuccess;

/**
 * One kind of memory ({@link RocmMemory}) of one HIP device.
 *
 * <p><b>Handles.</b> Pointers are HIP device pointers as {@link MemorySegment#ofAddress} (zero-length for
 * device memory; host-accessible segments of the allocated size for pinned memory). Streams are
 * {@code hipStream_t}s; {@link MemorySegment#NULL} is the device's null stream. Events are {@code hipEvent_t}s
 * made with {@code hipEventDisableTiming} and pooled ({@link DriverDevice}); an array's {@code sync_event} points to one ({@code hipEvent_t*}),
 * and the array owns both.
 *
 * <p><b>Other processes.</b> Device memory ({@code hipMalloc}) is exported with HIP IPC (see {@link HipIpc});
 * pinned host memory has no inter-process mechanism. Events of the device-memory kind reach other processes by
 * HIP IPC too (see {@link HipIpc}) where the runtime makes {@code hipEventInterprocess} events (tried once,
 * on first use: HIP has no attribute that says so, and some ROCm releases refuse the flag):
 * {@link #recordInterProcessEvent} makes a new one, never a pooled one, and {@link #destroyEvent} destroys it
 * and events opened from a peer's handle with {@code hipEventDestroy}.
 *
 * <p><b>Ordering.</b> Copies are {@code hipMemcpyAsync} on the caller's stream and may return before they
 * complete.
 *
 * <p><b>Native handles and adoption.</b> {@link #nativeHandles()} gives the {@code hipDevice_t}, borrowed.
 * {@link #adoptStream} accepts a live {@code hipStream_t} (checked with {@code hipStreamQuery} with this
 * device current) and {@link #adoptEvent} a live {@code hipEvent_t} (checked with {@code hipEventQuery});
 * both return the handle unchanged, and forgetting destroys it only when asked.
 *
 * <p><b>Threading.</b> All methods may be called from any thread: each makes this device current for the
 * duration of the call and restores the thread's previous device.
 */
final class RocmDevice extends DriverDevice<HipFunction> {
    /** HIP aligns allocations to at least this many bytes. */
    static final long ALIGNMENT = 256;

    private final HipRuntime hip;
    private final int ordinal;
    private final RocmMemory memory;
    private final Map<String, MemorySegment> handles;

    RocmDevice(HipRuntime hip, int ordinal, int device, RocmMemory memory, String name, long totalMemory) {
        super(memory, RocmMemory.HOST, ordinal, name, totalMemory, ALIGNMENT, "HIP", hip.calls, "the null stream");
        this.hip = hip;
        this.ordinal = ordinal;
        this.memory = memory;
        this.handles = Map.of("hipDevice_t", MemorySegment.ofAddress(device));
    }

    /** Makes this device current for the duration of {@code work} and restores the thread's previous one. */
    @Override
    protected <T> T call(Supplier<T> work) {
        return hip.onDevice(ordinal, work);
    }

    /** @return the HIP runtime library this backend loaded ({@code libamdhip64.so}, or {@code quiver.rocm.library}) */
    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return java.util.Optional.of(hip.library());
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("HIP", hip.versionText());
        p.put("allocator", memory.kind.allocator());
        return p;
    }

    // ---- memory of other processes ------------------------------------------------------------

    /** {@return HIP IPC for {@code hipMalloc} memory; nothing for the other kinds} */
    @Override
    protected java.util.Optional<dev.quiver.device.ffm.VendorIpc> ipc() {
        return memory == RocmMemory.DEVICE ? java.util.Optional.of(new HipIpc(hip, ordinal)) : java.util.Optional.empty();
    }

    /**
     * {@return HIP IPC events for the device-memory kind where the runtime makes {@code hipEventInterprocess}
     * events (tried: an event made and destroyed); nothing for the other kinds}
     */
    @Override
    protected java.util.Optional<dev.quiver.device.ffm.VendorIpcEvents> findIpcEvents() {
        if (memory != RocmMemory.DEVICE) {
            return java.util.Optional.empty();
        }
        HipIpc calls = new HipIpc(hip, ordinal);
        try {
            destroyNow(calls.create());
            return java.util.Optional.of(calls);
        } catch (RocmException e) {
            return java.util.Optional.empty();
        }
    }

    // ---- copies -------------------------------------------------------------------------------

    private void copy(MemorySegment to, MemorySegment from, long size, int kind, MemorySegment stream) {
        if (size == 0) {
            return;
        }
        run(() -> hip.api.check(HipFunction.hipMemcpyAsync, h -> (int) h.invokeExact(to, from, size, kind, stream)));
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        copy(MemorySegment.ofAddress(destination.address() + destinationOffset), source, source.byteSize(), hipMemcpyHostToDevice, stream);
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        copy(destination, MemorySegment.ofAddress(source.address() + sourceOffset), destination.byteSize(), hipMemcpyDeviceToHost, stream);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        copy(MemorySegment.ofAddress(destination.address() + destinationOffset), MemorySegment.ofAddress(source.address() + sourceOffset),
                byteCount, hipMemcpyDeviceToDevice, stream);
    }

    // ---- native handles and adoption ----------------------------------------------------------

    /** @return {@code hipDevice_t} (the device handle, an {@code int}, as an address value), borrowed */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return handles;
    }

    /**
     * @param nativeStream a live {@code hipStream_t} of this device, or NULL for its null stream
     * @return {@code nativeStream}
     * @throws IllegalArgumentException if {@code hipStreamQuery} does not know the stream or says it is of
     *                                  another device
     */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        if (!nativeStream.equals(MemorySegment.NULL)) {
            int error = call(() -> hip.api.result(HipFunction.hipStreamQuery, h -> (int) h.invokeExact(nativeStream)));
            checkLive(error, HipFunction.hipStreamQuery, nativeStream, "hipStream_t");
        }
        return nativeStream;
    }

    /**
     * @param nativeEvent a live {@code hipEvent_t}
     * @return {@code nativeEvent}
     * @throws IllegalArgumentException if it is NULL or {@code hipEventQuery} does not know it
     */
    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        if (nativeEvent.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("hipEvent_t is NULL");
        }
        int error = call(() -> hip.api.result(HipFunction.hipEventQuery, h -> (int) h.invokeExact(nativeEvent)));
        checkLive(error, HipFunction.hipEventQuery, nativeEvent, "hipEvent_t");
        return nativeEvent;
    }

    /** Accepts success and "not ready"; refuses unknown handles and those of another device. */
    private void checkLive(int error, HipFunction query, MemorySegment handle, String type) {
        if (error == hipSuccess || error == hipErrorNotReady) {
            return;
        }
        String what = type + " 0x" + Long.toHexString(handle.address());
        if (error == hipErrorInvalidHandle || error == hipErrorContextIsDestroyed) {
            throw new IllegalArgumentException(what + " is not live: " + hip.api.failure(query, error).getMessage());
        }
        if (error == hipErrorInvalidDevice) {
            throw new IllegalArgumentException(what + " is not of " + this + ": " + hip.api.failure(query, error).getMessage());
        }
        throw hip.api.failure(query, error);
    }
}
