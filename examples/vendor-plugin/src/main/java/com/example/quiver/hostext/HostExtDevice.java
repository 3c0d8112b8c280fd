package com.example.quiver.hostext;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one {@code hostext} device: host memory behind opaque pointers, asynchronous copies on streams,
 * events that are host-side counters (see the package description).
 *
 * <p><b>Handles.</b> Pointers are the base addresses {@link #allocate} returned; a copy looks its
 * allocation up by address, so an unknown pointer fails clearly instead of touching stray memory. Streams
 * and events are ids into tables (never Java references in native memory): stream 0 is the default
 * stream, {@link MemorySegment#NULL}.
 *
 * <p><b>Threading.</b> All methods may be called from any thread.
 */
final class HostExtDevice implements BackendDevice, DeviceEvents {
    private static final long MIN_ALIGNMENT = 64;

    private final Map<Long, Allocation> allocations = new ConcurrentHashMap<>();
    private final Map<Long, WorkQueue> streams = new ConcurrentHashMap<>();
    private final Map<Long, Recorded> events = new ConcurrentHashMap<>();
    private final AtomicLong nextStream = new AtomicLong(1);
    private final AtomicLong nextEvent = new AtomicLong(1);

    /** An allocation: its memory and the arena that frees it. */
    private record Allocation(MemorySegment memory, Arena arena) {}

    /** An event: the stream it was recorded on (null: never recorded) and that stream's task count then. */
    private record Recorded(WorkQueue stream, long count) {
        static final Recorded NEVER = new Recorded(null, 0);

        boolean complete() {
            return stream == null || stream.reached(count);
        }

        void await() {
            if (stream != null) {
                stream.awaitReached(count);
            }
        }
    }

    HostExtDevice() {
        streams.put(0L, new WorkQueue("hostext-default-stream"));
    }

    @Override
    public int deviceType() {
        return DeviceTypeCodes.EXT_DEV;
    }

    @Override
    public long deviceId() {
        return 0;
    }

    @Override
    public String name() {
        return "host memory as an extension device";
    }

    @Override
    public long totalMemory() {
        return Runtime.getRuntime().maxMemory();
    }

    @Override
    public boolean hostAccessible() {
        return false;
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("events", "host-side counters");
        p.put("vendor", "example");
        return p;
    }

    // ---- memory -------------------------------------------------------------------------------

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment memory = arena.allocate(Math.max(byteSize, 1), Math.max(alignment, MIN_ALIGNMENT));
            allocations.put(memory.address(), new Allocation(memory.asSlice(0, byteSize), arena));
            return memory.asSlice(0, byteSize);
        } catch (OutOfMemoryError e) {
            arena.close();
            DeviceException exhausted = new DeviceException("hostext: cannot allocate " + byteSize + " bytes",
                    DeviceException.Kind.OUT_OF_MEMORY);
            exhausted.initCause(e);
            throw exhausted;
        }
    }

    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        Allocation allocation = allocations.remove(pointer.address());
        if (allocation == null) {
            throw new IllegalArgumentException(unknown(pointer) + " (or it was freed already)");
        }
        allocation.arena().close();
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        MemorySegment target = slice(destination, destinationOffset, source.byteSize());
        queue(stream).enqueue(() -> MemorySegment.copy(source, 0, target, 0, source.byteSize()), source);
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        MemorySegment from = slice(source, sourceOffset, destination.byteSize());
        queue(stream).enqueue(() -> MemorySegment.copy(from, 0, destination, 0, destination.byteSize()), destination);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        MemorySegment from = slice(source, sourceOffset, byteCount);
        MemorySegment to = slice(destination, destinationOffset, byteCount);
        queue(stream).enqueue(() -> MemorySegment.copy(from, 0, to, 0, byteCount));
    }

    /** @return {@code bytes} of the allocation at {@code pointer}, from {@code offset}, bounds-checked */
    private MemorySegment slice(MemorySegment pointer, long offset, long bytes) {
        Allocation allocation = allocations.get(pointer.address());
        if (allocation == null) {
            throw new IllegalArgumentException(unknown(pointer));
        }
        return allocation.memory().asSlice(offset, bytes);
    }

    private static String unknown(MemorySegment pointer) {
        return "0x" + Long.toHexString(pointer.address()) + " is not an allocation of the hostext device";
    }

    // ---- streams ------------------------------------------------------------------------------

    @Override
    public MemorySegment createStream() {
        long id = nextStream.getAndIncrement();
        streams.put(id, new WorkQueue("hostext-stream-" + id));
        return MemorySegment.ofAddress(id);
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        queue(stream).drain();
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("the default stream is not destroyed");
        }
        WorkQueue queue = streams.remove(stream.address());
        if (queue == null) {
            throw new IllegalArgumentException("not a live hostext stream: " + stream.address());
        }
        queue.close();
    }

    private WorkQueue queue(MemorySegment stream) {
        WorkQueue queue = streams.get(stream.address());
        if (queue == null) {
            throw new IllegalArgumentException("not a live hostext stream: " + stream.address());
        }
        return queue;
    }

    // ---- the one capability: events (DeviceEvents) ---------------------------------------------

    @Override
    public MemorySegment createEvent() {
        long id = nextEvent.getAndIncrement();
        events.put(id, Recorded.NEVER);
        return MemorySegment.ofAddress(id);
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        WorkQueue queue = queue(stream);
        recorded(event);
        events.put(event.address(), new Recorded(queue, queue.enqueued()));
    }

    @Override
    public void waitEvent(MemorySegment event) {
        recorded(event).await();
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        Recorded recorded = recorded(event);
        if (!recorded.complete()) {
            queue(stream).enqueue(recorded::await);
        }
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        return recorded(event).complete();
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        if (events.remove(event.address()) == null) {
            throw new IllegalArgumentException("not a live hostext event: " + event.address());
        }
    }

    private Recorded recorded(MemorySegment event) {
        Recorded recorded = events.get(event.address());
        if (recorded == null) {
            throw new IllegalArgumentException("not a live hostext event: " + event.address());
        }
        return recorded;
    }
}
