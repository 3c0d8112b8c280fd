package dev.quiver.testkit.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.HardwareKind;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test double of a device backed by host memory: one device of a {@link TestDoubleProvider}. Its "device
 * memory" is host memory (one shared arena per allocation, closed when freed), copies complete before they
 * return, streams are one token with nothing to wait for, and events are tokens or blocks of host memory
 * (see {@link TestDoubleProvider}). It reports itself not host accessible. It never backs a claim about
 * hardware.
 *
 * <p>What it is asked is recorded in its provider's public lists. Freeing memory it did not allocate, or
 * an event call on a device made {@linkplain TestDoubleProvider.Builder#withoutEvents() without events},
 * throws.
 *
 * <p><b>Threading.</b> Every method may be called from any thread, concurrently.
 */
public final class TestDoubleDevice implements BackendDevice, dev.quiver.spi.DeviceEvents {
    /** The one stream token: its copies are synchronous, so one is enough. */
    private static final long STREAM = 7;

    private final TestDoubleProvider provider;
    private final long id;
    private final ConcurrentHashMap<Long, Arena> memory = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Long> sizes = new ConcurrentHashMap<>();
    private final TestDoubleEvents events;

    TestDoubleDevice(TestDoubleProvider provider, long id) {
        this.provider = provider;
        this.id = id;
        this.events = new TestDoubleEvents(provider.eventsInHostMemory());
    }

    @Override
    public int deviceType() {
        return provider.code();
    }

    @Override
    public long deviceId() {
        return id;
    }

    @Override
    public String name() {
        return provider.name() + " test double " + id;
    }

    @Override
    public long totalMemory() {
        return provider.memories.getOrDefault(id, -1L);
    }

    @Override
    public HardwareKind hardwareKind() {
        return provider.kinds.getOrDefault(id, HardwareKind.OTHER);
    }

    @Override
    public int computeUnits() {
        return provider.computeUnits.getOrDefault(id, -1);
    }

    @Override
    public boolean hostAccessible() {
        return false;
    }

    /** Host memory of its own arena; fails as a driver out of memory would past the provider's capacity. */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        long capacity = provider.capacity;
        if (provider.liveBytes.addAndGet(byteSize) > capacity) {
            provider.liveBytes.addAndGet(-byteSize);
            throw new DeviceException("test double out of memory: " + byteSize + " bytes more than its capacity of "
                    + capacity, DeviceException.Kind.OUT_OF_MEMORY);
        }
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(Math.max(1, byteSize), alignment);
        memory.put(segment.address(), arena);
        sizes.put(segment.address(), byteSize);
        provider.liveAllocations.incrementAndGet();
        return segment;
    }

    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        Arena arena = memory.remove(pointer.address());
        if (arena == null) {
            throw new IllegalArgumentException("test double: 0x" + Long.toHexString(pointer.address())
                    + " was not allocated by " + name() + " or was already freed");
        }
        provider.liveBytes.addAndGet(-sizes.remove(pointer.address()));
        arena.close();
        provider.liveAllocations.decrementAndGet();
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        long bytes = source.byteSize();
        MemorySegment.copy(source, 0, sized(destination, destinationOffset + bytes), destinationOffset, bytes);
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        long bytes = destination.byteSize();
        MemorySegment.copy(sized(source, sourceOffset + bytes), sourceOffset, destination, 0, bytes);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        MemorySegment.copy(sized(source, sourceOffset + byteCount), sourceOffset,
                sized(destination, destinationOffset + byteCount), destinationOffset, byteCount);
    }

    /** {@return a device pointer as a segment of at least {@code bytes}: the pointer is host memory} */
    private static MemorySegment sized(MemorySegment pointer, long bytes) {
        return pointer.byteSize() >= bytes ? pointer : pointer.reinterpret(bytes);
    }

    @Override
    public MemorySegment createStream() {
        return MemorySegment.ofAddress(STREAM);
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        provider.streamSyncs.add(stream.address());
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        // the token holds nothing
    }

    /** {@return the capability; events only where the provider was made with them} */
    @Override
    public <C extends dev.quiver.spi.DeviceCapability> java.util.Optional<C> capability(Class<C> kind) {
        if (!provider.events() && dev.quiver.spi.EventWaits.class.isAssignableFrom(kind)) {
            return java.util.Optional.empty();
        }
        return BackendDevice.super.capability(kind);
    }

    @Override
    public MemorySegment createEvent() {
        requireEvents();
        return events.create();
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        requireEvents();
        provider.eventRecords.add(new TestDoubleProvider.EventRecord(event.address(), stream.address()));
        RuntimeException failure = provider.recordFailure;
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void waitEvent(MemorySegment event) {
        requireEvents();
        provider.waitedEvents.add(event.address());
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        requireEvents();
        provider.streamWaits.add(new TestDoubleProvider.StreamWait(stream.address(), event.address()));
    }

    /** {@return true: work is complete when its call returns}; rejects unknown handles where events are host memory */
    @Override
    public boolean isEventComplete(MemorySegment event) {
        requireEvents();
        events.check(event);
        return true;
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        requireEvents();
        provider.destroyedEvents.add(event.address());
        events.destroy(event);
    }

    private void requireEvents() {
        if (!provider.events()) {
            throw new UnsupportedOperationException("test double " + name() + " has no events");
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
