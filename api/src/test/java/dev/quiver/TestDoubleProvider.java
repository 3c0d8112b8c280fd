package dev.quiver;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double of a backend plugin: serves one device type code with host memory behind it and events
 * that are plain counters, and records what it was asked. It stands in for real hardware only to exercise
 * the API's discovery, ranking and event plumbing; it backs no claim about any device.
 */
final class TestDoubleProvider implements DeviceProvider {
    final AtomicInteger probes = new AtomicInteger();
    final List<Long> waitedEvents = new ArrayList<>();
    private final String name;
    private final int code;
    private final int priority;
    private final String unavailable;
    private final boolean throwOnProbe;

    TestDoubleProvider(String name, int code, int priority) {
        this(name, code, priority, null, false);
    }

    private TestDoubleProvider(String name, int code, int priority, String unavailable, boolean throwOnProbe) {
        this.name = name;
        this.code = code;
        this.priority = priority;
        this.unavailable = unavailable;
        this.throwOnProbe = throwOnProbe;
    }

    static TestDoubleProvider unavailable(String name, int code, String reason) {
        return new TestDoubleProvider(name, code, 0, reason, false);
    }

    static TestDoubleProvider throwing(String name, int code) {
        return new TestDoubleProvider(name, code, 0, null, true);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {code};
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public ProbeResult probe() {
        probes.incrementAndGet();
        if (throwOnProbe) {
            throw new IllegalStateException("test double probe failure");
        }
        if (unavailable != null) {
            return ProbeResult.unavailable(unavailable);
        }
        return ProbeResult.available(List.of(new Device(0), new Device(1)));
    }

    /** Host memory presented as a device of the provider's code; events are counters. */
    final class Device implements BackendDevice {
        private final long id;
        private final ConcurrentHashMap<Long, Arena> memory = new ConcurrentHashMap<>();
        private final AtomicLong events = new AtomicLong(0x1000);

        Device(long id) {
            this.id = id;
        }

        @Override
        public int deviceType() {
            return code;
        }

        @Override
        public long deviceId() {
            return id;
        }

        @Override
        public String name() {
            return name + " test double " + id;
        }

        @Override
        public long totalMemory() {
            return -1;
        }

        @Override
        public boolean hostAccessible() {
            return false;
        }

        @Override
        public MemorySegment allocate(long byteSize, long alignment) {
            Arena arena = Arena.ofShared();
            MemorySegment segment = arena.allocate(Math.max(1, byteSize), alignment);
            memory.put(segment.address(), arena);
            return segment;
        }

        @Override
        public void free(MemorySegment pointer) {
            if (!pointer.equals(MemorySegment.NULL)) {
                memory.remove(pointer.address()).close();
            }
        }

        @Override
        public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
            MemorySegment.copy(source, 0, destination.reinterpret(destinationOffset + source.byteSize()), destinationOffset, source.byteSize());
        }

        @Override
        public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
            MemorySegment.copy(source.reinterpret(sourceOffset + destination.byteSize()), sourceOffset, destination, 0, destination.byteSize());
        }

        @Override
        public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                     long destinationOffset, long byteCount, MemorySegment stream) {
            MemorySegment.copy(source.reinterpret(sourceOffset + byteCount), sourceOffset,
                    destination.reinterpret(destinationOffset + byteCount), destinationOffset, byteCount);
        }

        @Override
        public MemorySegment createStream() {
            return MemorySegment.ofAddress(7);
        }

        @Override
        public void synchronizeStream(MemorySegment stream) {
        }

        @Override
        public void destroyStream(MemorySegment stream) {
        }

        @Override
        public boolean supportsEvents() {
            return true;
        }

        @Override
        public MemorySegment createEvent() {
            return MemorySegment.ofAddress(events.incrementAndGet());
        }

        @Override
        public void recordEvent(MemorySegment event, MemorySegment stream) {
        }

        @Override
        public void waitEvent(MemorySegment event) {
            synchronized (waitedEvents) {
                waitedEvents.add(event.address());
            }
        }

        @Override
        public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        }

        @Override
        public boolean isEventComplete(MemorySegment event) {
            return true;
        }

        @Override
        public void destroyEvent(MemorySegment event) {
        }
    }
}
