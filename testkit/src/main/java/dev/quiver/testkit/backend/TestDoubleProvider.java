package dev.quiver.testkit.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.HardwareKind;
import dev.quiver.spi.ProbeResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double of a backend plugin: a device backed by host memory. It serves one device type code (any:
 * CUDA, ROCM, OPENCL, EXT_DEV, ...) with {@link TestDoubleDevice}s whose "device memory" is host memory and
 * whose events are tokens, and records what it was asked: host waits, event records, stream waits, stream
 * synchronisations, destroyed events, live allocations. It stands in for real hardware only to exercise the
 * code above a backend (discovery, ranking, copies, event and stream plumbing); it never backs a claim about
 * any device. Its devices are not host accessible, so an API treats their pointers as device pointers it
 * never dereferences.
 *
 * <p>The devices are made once, when the provider is made, and every {@link #probe} returns the same ones.
 * Their event handles are unique in the process and above the small tokens the API's common checks leave
 * alone, so that an event of one device given to another is told apart. With {@link
 * Builder#eventsInHostMemory()}, each event is instead a block of host memory the device allocated (as a
 * driver's heap handle would be), and {@link dev.quiver.spi.EventWaits#isEventComplete} rejects every handle the device
 * did not make.
 *
 * <p><b>Threading.</b> Every method, and every method of its devices, may be called from any thread,
 * concurrently. The public lists and maps are thread-safe; the settings ({@link #capacity}, {@link
 * #recordFailure}) are volatile and take effect on the next call.
 */
public final class TestDoubleProvider implements DeviceProvider {
    /**
     * An event recorded on a stream: {@code recordEvent(event, stream)}.
     *
     * @param event  the event's handle
     * @param stream the stream's handle
     */
    public record EventRecord(long event, long stream) {}

    /**
     * A stream made to wait on an event: {@code streamWaitEvent(stream, event)}.
     *
     * @param stream the stream's handle
     * @param event  the event's handle
     */
    public record StreamWait(long stream, long event) {}

    /** How many times {@link #probe} ran. */
    public final AtomicInteger probes = new AtomicInteger();
    /** Every event waited on by the host, in order. */
    public final List<Long> waitedEvents = new CopyOnWriteArrayList<>();
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
    /** The most bytes the provider's devices hold at once before allocate fails as a driver out of memory would. */
    public volatile long capacity = Long.MAX_VALUE;
    /** What each device (by id) reports it is; {@code OTHER} for those not set. */
    public final Map<Long, HardwareKind> kinds = new ConcurrentHashMap<>();
    /** The total memory each device (by id) reports; -1 for those not set. */
    public final Map<Long, Long> memories = new ConcurrentHashMap<>();
    /** The compute units each device (by id) reports; -1 for those not set. */
    public final Map<Long, Integer> computeUnits = new ConcurrentHashMap<>();

    final AtomicInteger liveAllocations = new AtomicInteger();
    final AtomicLong liveBytes = new AtomicLong();
    private final String name;
    private final int code;
    private final int priority;
    private final String unavailable;
    private final boolean throwOnProbe;
    private final boolean events;
    private final boolean eventsInHostMemory;
    private final List<TestDoubleDevice> devices;

    /**
     * Makes a provider of two devices (ids 0 and 1) with events that are tokens.
     *
     * @param name     the provider name
     * @param code     the device type code its devices serve
     * @param priority its rank
     */
    public TestDoubleProvider(String name, int code, int priority) {
        this(builder(name, code).priority(priority));
    }

    private TestDoubleProvider(Builder builder) {
        this.name = builder.name;
        this.code = builder.code;
        this.priority = builder.priority;
        this.unavailable = builder.unavailable;
        this.throwOnProbe = builder.throwOnProbe;
        this.events = builder.events;
        this.eventsInHostMemory = builder.eventsInHostMemory;
        List<TestDoubleDevice> made = new ArrayList<>();
        for (int id = 0; id < builder.deviceCount; id++) {
            made.add(new TestDoubleDevice(this, id));
        }
        this.devices = List.copyOf(made);
    }

    /**
     * Makes a provider named {@code test-double} of two devices (ids 0 and 1).
     *
     * @param code the device type code its devices serve
     * @return the provider
     */
    public static TestDoubleProvider of(int code) {
        return new TestDoubleProvider("test-double", code, 0);
    }

    /**
     * Makes a provider whose probe reports it unavailable.
     *
     * @param name   the provider name
     * @param code   the device type code
     * @param reason why its probe says it is unavailable
     * @return the provider
     */
    public static TestDoubleProvider unavailable(String name, int code, String reason) {
        return builder(name, code).unavailable(reason).build();
    }

    /**
     * Makes a provider whose probe throws.
     *
     * @param name the provider name
     * @param code the device type code
     * @return the provider
     */
    public static TestDoubleProvider throwing(String name, int code) {
        return builder(name, code).throwingOnProbe().build();
    }

    /**
     * Starts a provider of two devices with events that are tokens, rank 0.
     *
     * @param name the provider name
     * @param code the device type code its devices serve
     * @return a builder of it
     */
    public static Builder builder(String name, int code) {
        return new Builder(name, code);
    }

    /** {@return allocations of this provider's devices not freed yet} */
    public int liveAllocations() {
        return liveAllocations.get();
    }

    /**
     * {@return one of its devices, the same every probe returns}
     *
     * @param id the device id
     * @throws IndexOutOfBoundsException if the provider has no device of that id
     */
    public TestDoubleDevice device(long id) {
        return devices.get(Math.toIntExact(id));
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
        return ProbeResult.available(List.copyOf(devices));
    }

    int code() {
        return code;
    }

    boolean events() {
        return events;
    }

    boolean eventsInHostMemory() {
        return eventsInHostMemory;
    }

    /**
     * What a {@link TestDoubleProvider} is made with. Confined to the thread that uses it.
     */
    public static final class Builder {
        private final String name;
        private final int code;
        private int priority;
        private int deviceCount = 2;
        private String unavailable;
        private boolean throwOnProbe;
        private boolean events = true;
        private boolean eventsInHostMemory;

        private Builder(String name, int code) {
            this.name = name;
            this.code = code;
        }

        /**
         * Sets its rank.
         *
         * @param priority the rank (default 0)
         * @return this builder
         */
        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        /**
         * Sets how many devices it serves.
         *
         * @param count the number of devices, ids 0 to {@code count - 1} (default 2)
         * @return this builder
         * @throws IllegalArgumentException if {@code count} is negative
         */
        public Builder deviceCount(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("device count is negative: " + count);
            }
            this.deviceCount = count;
            return this;
        }

        /**
         * Makes its probe report it unavailable.
         *
         * @param reason why
         * @return this builder
         */
        public Builder unavailable(String reason) {
            this.unavailable = reason;
            return this;
        }

        /**
         * Makes its probe throw.
         *
         * @return this builder
         */
        public Builder throwingOnProbe() {
            this.throwOnProbe = true;
            return this;
        }

        /**
         * Makes its devices have no events: they offer no {@code DeviceEvents}, and every event method called on the device itself throws
         * {@link UnsupportedOperationException}, as on a backend without events.
         *
         * @return this builder
         */
        public Builder withoutEvents() {
            this.events = false;
            return this;
        }

        /**
         * Makes each event a block of host memory its device allocated, freed when the event is destroyed,
         * and makes {@code isEventComplete} reject every handle that is not a live event of the device.
         *
         * @return this builder
         */
        public Builder eventsInHostMemory() {
            this.eventsInHostMemory = true;
            return this;
        }

        /** {@return the provider} */
        public TestDoubleProvider build() {
            return new TestDoubleProvider(this);
        }
    }
}
