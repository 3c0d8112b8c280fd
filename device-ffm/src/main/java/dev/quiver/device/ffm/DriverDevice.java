package dev.quiver.device.ffm;

import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

/**
 * What the devices of CUDA's driver API and of HIP have in common: work runs with the device's context (or
 * the device itself) current on the calling thread ({@link #call}), memory of one kind comes from the
 * driver's allocator ({@link DriverMemory}), pinned host memory from its host allocator, and streams and
 * events are the driver's opaque handles ({@link StreamEventCalls}). The device's own events are made
 * without timing and kept in an {@link EventPool} when their owner destroys them, so that recording one costs
 * the record call alone.
 *
 * <p>A subclass says how its context becomes current, and adds what its driver does its own way: copies,
 * inter-process memory and events, adoption of native handles.
 *
 * <p><b>Threading.</b> All methods may be called from any thread: each makes the context current for the
 * duration of the call and leaves the thread's context as it was. Subclasses must be thread-safe too.
 *
 * @param <F> the backend's table of entry points
 */
public abstract class DriverDevice<F extends Enum<F>> extends VendorDevice
        implements dev.quiver.spi.PinnedHostMemory, dev.quiver.spi.DeviceEvents, dev.quiver.spi.IpcEvents, dev.quiver.spi.NativeAdoption {
    private final DriverMemory<F> memory;
    private final DriverMemory<F> pinned;
    private final StreamEventCalls<F> calls;
    private final String nullStream;
    /** Events destroyed by their owner and kept for the next record. */
    private final EventPool events;

    /**
     * @param memory       the kind of memory this device allocates
     * @param pinned       the driver's page-locked host memory, for {@link #allocateHost}
     * @param deviceId     the Arrow {@code device_id}
     * @param name         a human-readable name
     * @param totalMemory  bytes, or -1 if unknown
     * @param maxAlignment the alignment the driver's allocators guarantee
     * @param vendor       the vendor API, for messages (for example {@code CUDA})
     * @param calls        the driver's stream and event calls
     * @param nullStream   how messages name the stream {@link MemorySegment#NULL} stands for (for example
     *                     {@code "the null stream"})
     */
    protected DriverDevice(DriverMemory<F> memory, DriverMemory<F> pinned, long deviceId, String name, long totalMemory,
                           long maxAlignment, String vendor, StreamEventCalls<F> calls, String nullStream) {
        super(memory.kind(), deviceId, name, totalMemory, maxAlignment, vendor);
        this.memory = memory;
        this.pinned = pinned;
        this.calls = calls;
        this.nullStream = nullStream;
        this.events = new EventPool(calls::createEvent, this::destroyNow);
    }

    /**
     * Runs {@code work} with this device's context current on the calling thread, and leaves the thread's
     * context as it was.
     *
     * @param work the driver calls
     * @param <T>  what it returns
     * @return what {@code work} returned
     */
    protected abstract <T> T call(Supplier<T> work);

    /** Runs {@code work} with this device's context current on the calling thread (see {@link #call}). */
    protected final void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    // ---- memory -------------------------------------------------------------------------------

    @Override
    protected final MemorySegment allocateNative(long byteSize) {
        return call(() -> memory.allocate(calls.api(), byteSize));
    }

    @Override
    protected final void freeNative(MemorySegment pointer) {
        run(() -> memory.free(calls.api(), pointer));
    }

    /** {@return true for device memory (the kind the host cannot reach): pinned host memory moves to and from it at the full rate} */
    @Override
    public final boolean pinsHostMemory() {
        return !hostAccessible();
    }

    /** The driver's page-locked host memory, aligned to at least 4096 bytes. */
    @Override
    public final MemorySegment allocateHost(long byteSize, long alignment) {
        return call(() -> pinned.allocate(calls.api(), byteSize)).reinterpret(byteSize);
    }

    @Override
    public final void freeHost(MemorySegment memory) {
        run(() -> pinned.free(calls.api(), memory));
    }

    // ---- streams ------------------------------------------------------------------------------

    @Override
    public final MemorySegment createStream() {
        return call(calls::createStream);
    }

    @Override
    public final void synchronizeStream(MemorySegment stream) {
        run(() -> calls.synchronizeStream(stream));
    }

    /** @throws IllegalArgumentException for {@link MemorySegment#NULL}, a stream nobody may destroy */
    @Override
    public final void destroyStream(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(nullStream + " of " + this + " cannot be destroyed");
        }
        run(() -> calls.destroyStream(stream));
    }

    // ---- events -------------------------------------------------------------------------------

    /**
     * A new event or one from this device's pool: events this device made are kept for reuse when destroyed
     * (up to {@link EventPool#CAPACITY}), so recording one costs the driver's record call alone.
     */
    @Override
    public final MemorySegment createEvent() {
        return call(events::take);
    }

    @Override
    public final void recordEvent(MemorySegment event, MemorySegment stream) {
        run(() -> calls.recordEvent(event, stream));
    }

    /** Takes an event from the pool (or makes one) and records it, with the context made current once. */
    @Override
    public final MemorySegment recordNewEvent(MemorySegment stream) {
        return call(() -> {
            MemorySegment event = events.take();
            try {
                calls.recordEvent(event, stream);
            } catch (RuntimeException e) {
                events.giveBack(event);
                throw e;
            }
            return event;
        });
    }

    /**
     * Makes an event for sharing (never one of the pool) and records it, with the context made current once;
     * the event is destroyed again if recording fails.
     */
    @Override
    public final MemorySegment recordInterProcessEvent(MemorySegment stream) {
        return recordOrDestroy(createInterProcessEvent(), stream);
    }

    /** Forgets an adopted stream; with {@code destroy}, destroys it as {@link #destroyStream} does. */
    @Override
    public final void forgetStream(MemorySegment stream, boolean destroy) {
        if (destroy) {
            destroyStream(stream);
        }
    }

    @Override
    public final void waitEvent(MemorySegment event) {
        int result = synchronizeEvent(event);
        if (result != calls.api().success()) {
            throw calls.api().failure(calls.eventSynchronize(), result);
        }
    }

    /**
     * @param event an event of this device, made here, adopted or opened from a peer's handle
     * @return the driver's answer once the host waited for it, unchecked; this one waits with the context current
     */
    protected int synchronizeEvent(MemorySegment event) {
        return call(() -> calls.synchronizeEvent(event));
    }

    @Override
    public final void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        run(() -> calls.streamWaitEvent(stream, event));
    }

    @Override
    public final boolean isEventComplete(MemorySegment event) {
        return calls.completed(queryEvent(event));
    }

    /**
     * @param event an event of this device, made here, adopted or opened from a peer's handle
     * @return the driver's answer, unchecked; this one asks with the context current
     */
    protected int queryEvent(MemorySegment event) {
        return call(() -> calls.queryEvent(event));
    }

    /** Puts an event this device made back in its pool; destroys others, and events beyond the pool's size. */
    @Override
    public final void destroyEvent(MemorySegment event) {
        events.giveBack(event);
    }

    /** Destroys the pooled events. */
    @Override
    public final void releaseCaches() {
        events.clear();
    }

    /**
     * Destroys an event for real, never keeping it: one the pool has no room for, or one made for another
     * purpose (a probe).
     *
     * @param event the event
     */
    protected final void destroyNow(MemorySegment event) {
        run(() -> calls.destroyEvent(event));
    }
}
