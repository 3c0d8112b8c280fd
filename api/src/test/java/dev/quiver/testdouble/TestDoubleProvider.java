package dev.quiver.testdouble;

import dev.quiver.internal.backend.HostMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double of a backend plugin: serves one device type code (any: CUDA, ROCM, OPENCL, EXT_DEV, ...) with
 * host memory behind it and events that are plain counters, and records what it was asked: host waits,
 * event records, stream waits and stream synchronisations. It stands in for real hardware only to exercise
 * the API's discovery, ranking, event and stream plumbing; it backs no claim about any device. Its devices
 * are not host accessible, so the API treats their pointers as device pointers it never dereferences.
 */
public final class TestDoubleProvider implements DeviceProvider {
    /** An event recorded on a stream: {@code recordEvent(event, stream)}. */
    public record EventRecord(long event, long stream) {}

    /** A stream made to wait on an event: {@code streamWaitEvent(stream, event)}. */
    public record StreamWait(long stream, long event) {}

    /** How many times {@link #probe} ran. */
    public final AtomicInteger probes = new AtomicInteger();
    /** Every event waited on by the host, in order; guarded by itself. */
    public final List<Long> waitedEvents = new ArrayList<>();
    /** Every {@code recordEvent}, in order. */
    public final List<EventRecord> eventRecords = new CopyOnWriteArrayList<>();
    /** Every {@code streamWaitEvent}, in order. */
    public final List<StreamWait> streamWaits = new CopyOnWriteArrayList<>();
    /** The stream of every {@code synchronizeStream}, in order. */
    public final List<Long> streamSyncs = new CopyOnWriteArrayList<>();
    /** Every event destroyed, in order. */
    public final List<Long> destroyedEvents = new CopyOnWriteArrayList<>();
    /** What {@code recordEvent} throws, after noting the call, while set; null for none. */
    public volatile RuntimeException recordFailure;
    /**
     * Event handles, unique in the process and above the small tokens the common checks leave alone, so that
     * an event of one device given to another is told apart.
     */
    private static final AtomicLong EVENTS = new AtomicLong(0x100_0000);
    private final AtomicInteger liveAllocations = new AtomicInteger();
    private final AtomicLong liveBytes = new AtomicLong();
    /** The most bytes the double's devices hold at once before allocate fails as a driver out of memory would. */
    public volatile long capacity = Long.MAX_VALUE;
    /** What each device (by id) reports it is; {@code OTHER} for those not set. */
    public final java.util.Map<Long, dev.quiver.spi.HardwareKind> kinds = new ConcurrentHashMap<>();
    /** The total memory each device (by id) reports; -1 for those not set. */
    public final java.util.Map<Long, Long> memories = new ConcurrentHashMap<>();
    /** The compute units each device (by id) reports; -1 for those not set. */
    public final java.util.Map<Long, Integer> computeUnits = new ConcurrentHashMap<>();
    private final String name;
    private final int code;
    private final int priority;
    private final String unavailable;
    private final boolean throwOnProbe;

    /**
     * @param name     the provider name
     * @param code     the device type code its two devices (ids 0 and 1) serve
     * @param priority its rank
     */
    public TestDoubleProvider(String name, int code, int priority) {
        this(name, code, priority, null, false);
    }

    private TestDoubleProvider(String name, int code, int priority, String unavailable, boolean throwOnProbe) {
        this.name = name;
        this.code = code;
        this.priority = priority;
        this.unavailable = unavailable;
        this.throwOnProbe = throwOnProbe;
    }

    /**
     * @param name   the provider name
     * @param code   the device type code
     * @param reason why its probe says it is unavailable
     * @return a provider whose probe reports it unavailable
     */
    public static TestDoubleProvider unavailable(String name, int code, String reason) {
        return new TestDoubleProvider(name, code, 0, reason, false);
    }

    /**
     * @param name the provider name
     * @param code the device type code
     * @return a provider whose probe throws
     */
    public static TestDoubleProvider throwing(String name, int code) {
        return new TestDoubleProvider(name, code, 0, null, true);
    }

    /** @return allocations of this provider's devices not freed yet */
    public int liveAllocations() {
        return liveAllocations.get();
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
        private final ConcurrentHashMap<Long, Long> sizes = new ConcurrentHashMap<>();

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
            return memories.getOrDefault(id, -1L);
        }

        @Override
        public dev.quiver.spi.HardwareKind hardwareKind() {
            return kinds.getOrDefault(id, dev.quiver.spi.HardwareKind.OTHER);
        }

        @Override
        public int computeUnits() {
            return computeUnits.getOrDefault(id, -1);
        }

        @Override
        public boolean hostAccessible() {
            return false;
        }

        @Override
        public MemorySegment allocate(long byteSize, long alignment) {
            if (liveBytes.addAndGet(byteSize) > capacity) {
                liveBytes.addAndGet(-byteSize);
                throw new dev.quiver.spi.DeviceException("test double out of memory: " + byteSize + " bytes more than its capacity of " + capacity,
                        dev.quiver.spi.DeviceException.Kind.OUT_OF_MEMORY);
            }
            Arena arena = Arena.ofShared();
            MemorySegment segment = arena.allocate(Math.max(1, byteSize), alignment);
            memory.put(segment.address(), arena);
            sizes.put(segment.address(), byteSize);
            liveAllocations.incrementAndGet();
            return segment;
        }

        @Override
        public void free(MemorySegment pointer) {
            if (!pointer.equals(MemorySegment.NULL)) {
                Arena arena = memory.remove(pointer.address());
                liveBytes.addAndGet(-sizes.remove(pointer.address()));
                arena.close();
                liveAllocations.decrementAndGet();
            }
        }

        /** The host device's default stream: the double's own stream tokens mean nothing to the host device. */
        private static final MemorySegment HOST_STREAM = HostMemory.unchecked().defaultStream();

        @Override
        public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
            HostMemory.unchecked().copyFromHost(source, destination, destinationOffset, HOST_STREAM);
        }

        @Override
        public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
            HostMemory.unchecked().copyToHost(source, sourceOffset, destination, HOST_STREAM);
        }

        @Override
        public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                     long destinationOffset, long byteCount, MemorySegment stream) {
            HostMemory.unchecked().copyWithinDevice(source, sourceOffset, destination, destinationOffset, byteCount, HOST_STREAM);
        }

        @Override
        public MemorySegment createStream() {
            return MemorySegment.ofAddress(7);
        }

        @Override
        public void synchronizeStream(MemorySegment stream) {
            streamSyncs.add(stream.address());
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
            return MemorySegment.ofAddress(EVENTS.incrementAndGet());
        }

        @Override
        public void recordEvent(MemorySegment event, MemorySegment stream) {
            eventRecords.add(new EventRecord(event.address(), stream.address()));
            if (recordFailure != null) {
                throw recordFailure;
            }
        }

        @Override
        public void waitEvent(MemorySegment event) {
            synchronized (waitedEvents) {
                waitedEvents.add(event.address());
            }
        }

        @Override
        public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
            streamWaits.add(new StreamWait(stream.address(), event.address()));
        }

        @Override
        public boolean isEventComplete(MemorySegment event) {
            return true;
        }

        @Override
        public void destroyEvent(MemorySegment event) {
            destroyedEvents.add(event.address());
        }
    }
}
