package dev.quiver;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code BackendDevice.recordNewEvent} as a plugin that implements only {@code createEvent} and
 * {@code recordEvent} gets it (the test double, unchecked): the two calls in order, and the event destroyed
 * when recording fails, the failure passed on.
 */
class RecordNewEventDefaultTest {
    private final TestDoubleProvider vendor = new TestDoubleProvider("vendor", DeviceTypeCodes.EXT_DEV, 0);
    private final BackendDevice device = ((ProbeResult.Available) vendor.probe()).devices().getFirst();

    @Test
    void theDefaultCreatesThenRecords() {
        MemorySegment event = device.capability(DeviceEvents.class).orElseThrow().recordNewEvent(MemorySegment.ofAddress(0x70_0000L));
        assertEquals(List.of(new TestDoubleProvider.EventRecord(event.address(), 0x70_0000L)), vendor.eventRecords);
        assertEquals(List.of(), vendor.destroyedEvents);
    }

    @Test
    void aFailedRecordingDestroysTheEventAndPassesTheFailureOn() {
        IllegalStateException refusal = new IllegalStateException("queue lost");
        vendor.recordFailure = refusal;
        assertSame(refusal, assertThrows(IllegalStateException.class, () -> device.capability(DeviceEvents.class).orElseThrow().recordNewEvent(MemorySegment.NULL)));
        long event = vendor.eventRecords.getFirst().event();
        assertEquals(List.of(event), vendor.destroyedEvents, "the event made for the recording is destroyed");
    }
}
