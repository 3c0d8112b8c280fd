package dev.quiver.cli;

import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.check.Conformance;
import dev.quiver.check.ConformanceReport;
import dev.quiver.check.ProducerSignature;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The last step of the {@code sync_event} heuristic: when a backend serves the array's device, it is
 * asked whether the value {@code sync_event} points to is an event, and if not, whether
 * {@code sync_event} itself is one. The backend here is a test double of a ROCm backend whose events are
 * blocks of host memory it allocated (so both readings pass the memory-map step, as a real driver's heap
 * handles would); it recognises exactly the events it made. It backs no claim about ROCm.
 */
class SyncEventBackendHeuristicTest {
    private static final Arena EVENTS = Arena.ofShared();
    private static MemorySegment event;
    private static Devices devices;

    @BeforeAll
    static void makeAnEvent() {
        event = EVENTS.allocate(64, 16);
        devices = Backends.devices(List.of(new TestDoubleEventProvider(event)), BackendSelection.all());
        CheckProducers.setEvent(event);
    }

    @AfterAll
    static void freeTheEvent() {
        CheckProducers.setEvent(MemorySegment.NULL);
        EVENTS.close();
    }

    @Test
    void aPointerToTheEventConforms() {
        ConformanceReport report = check("rocm_event_pointer");
        assertEquals(List.of(), report.violations());
        assertTrue(report.notes().stream().noneMatch(n -> n.startsWith("sync_event")), report.notes().toString());
    }

    @Test
    void theEventItselfIsCaughtByAskingTheBackend() {
        ConformanceReport report = check("rocm_event_stored");
        assertEquals(Set.of("event.handle-stored"), report.ruleIds(), report.violations().toString());
        assertEquals("sync_event", report.violations().getFirst().path());
        assertTrue(report.violations().getFirst().message().contains("it must be hipEvent_t*, a pointer to the event"),
                report.violations().getFirst().message());
    }

    private static ConformanceReport check(String producer) {
        return Conformance.checkProducer(CheckProducers.LIBRARY.symbol(producer), ProducerSignature.DEVICE_ARRAY_WITH_SCHEMA, devices, 1);
    }

    /** Test double of a ROCm backend: one device, id 0, whose only event is the one it was given. */
    private record TestDoubleEventProvider(MemorySegment event) implements DeviceProvider {
        @Override
        public String name() {
            return "rocm-test-double";
        }

        @Override
        public int[] deviceTypes() {
            return new int[] {DeviceTypeCodes.ROCM};
        }

        @Override
        public ProbeResult probe() {
            return ProbeResult.available(List.of(new TestDoubleEventDevice(event)));
        }
    }

    /** Test double of a ROCm device that knows one event and can do nothing else. */
    private record TestDoubleEventDevice(MemorySegment event) implements BackendDevice {
        @Override
        public int deviceType() {
            return DeviceTypeCodes.ROCM;
        }

        @Override
        public long deviceId() {
            return 0;
        }

        @Override
        public String name() {
            return "ROCm test double";
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
            throw unsupported();
        }

        @Override
        public void free(MemorySegment pointer) {
            throw unsupported();
        }

        @Override
        public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
            throw unsupported();
        }

        @Override
        public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
            throw unsupported();
        }

        @Override
        public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                     long destinationOffset, long byteCount, MemorySegment stream) {
            throw unsupported();
        }

        @Override
        public MemorySegment createStream() {
            throw unsupported();
        }

        @Override
        public void synchronizeStream(MemorySegment stream) {
            throw unsupported();
        }

        @Override
        public void destroyStream(MemorySegment stream) {
            throw unsupported();
        }

        @Override
        public boolean supportsEvents() {
            return true;
        }

        @Override
        public boolean isEventComplete(MemorySegment handle) {
            if (handle.address() != event.address()) {
                throw new IllegalArgumentException("test double: 0x" + Long.toHexString(handle.address()) + " is not an event");
            }
            return true;
        }

        private static UnsupportedOperationException unsupported() {
            return new UnsupportedOperationException("test double: events only");
        }
    }
}
