package dev.quiver.cli;

import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.check.Conformance;
import dev.quiver.check.ConformanceReport;
import dev.quiver.check.ProducerSignature;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The last step of the {@code sync_event} heuristic: when a backend serves the array's device, it is
 * asked whether the value {@code sync_event} points to is an event, and if not, whether
 * {@code sync_event} itself is one. The backend here is testkit's test double of a backend, serving ROCm,
 * whose events are blocks of host memory it allocated (so both readings pass the memory-map step, as a real
 * driver's heap handles would); it recognises exactly the events it made. It backs no claim about ROCm.
 */
class SyncEventBackendHeuristicTest {
    private static final TestDoubleProvider ROCM =
            TestDoubleProvider.builder("rocm-test-double", DeviceTypeCodes.ROCM).deviceCount(1).eventsInHostMemory().build();
    private static MemorySegment event;
    private static Devices devices;

    @BeforeAll
    static void makeAnEvent() {
        event = ROCM.device(0).createEvent();
        devices = Backends.devices(List.of(ROCM), BackendSelection.all());
        CheckProducers.setEvent(event);
    }

    @AfterAll
    static void freeTheEvent() {
        CheckProducers.setEvent(MemorySegment.NULL);
        ROCM.device(0).destroyEvent(event);
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
}
