package dev.quiver.tck;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.NoSuchElementException;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks for a backend running on a test double of its vendor API built on testkit's device model
 * ({@code test_double_device.h}), whose queues defer all work until it is waited for and whose events make
 * one step of progress per query. On such a test double they prove that the backend leaves copies pending
 * until the stream is synchronised and reads "not ready" from an event query correctly; on real hardware
 * the timing they assert does not hold, so they are for test doubles only.
 */
public final class DeferredWorkChecks {
    private DeferredWorkChecks() {}

    /**
     * Copies 100 bytes in and out on a new stream and checks that the host sees them only after
     * {@link BackendDevice#synchronizeStream}.
     *
     * @param device a device of the backend under test, on a test double
     */
    public static void copiesCompleteWhenTheStreamIsSynchronized(BackendDevice device) {
        MemorySegment stream = device.createStream();
        MemorySegment buffer = device.allocate(100, 64);
        try (Arena arena = Arena.ofConfined()) {
            device.copyFromHost(arena.allocate(100).fill((byte) 7), buffer, 0, stream);
            MemorySegment back = arena.allocate(100);
            device.copyToHost(buffer, 0, back, stream);
            assertEquals(0, back.get(JAVA_BYTE, 99), device + ": not copied before the stream is synchronized");
            device.synchronizeStream(stream);
            assertEquals(7, back.get(JAVA_BYTE, 99), device + ": copied once the stream is synchronized");
        } finally {
            device.free(buffer);
            device.destroyStream(stream);
        }
    }

    /**
     * Records an event after a pending copy and checks that the first query says "not complete" and the
     * second "complete".
     *
     * @param device a device of the backend under test, on a test double
     */
    public static void eventQueriesSeeProgress(BackendDevice device) {
        DeviceEvents events = device.capability(DeviceEvents.class).orElseThrow(() -> new NoSuchElementException(device + " offers no events"));
        EventWaits waits = device.capability(EventWaits.class).orElseThrow(() -> new NoSuchElementException(device + " waits on no events"));
        MemorySegment stream = device.createStream();
        MemorySegment buffer = device.allocate(16, 16);
        MemorySegment event = events.createEvent();
        try (Arena arena = Arena.ofConfined()) {
            device.copyFromHost(arena.allocate(16), buffer, 0, stream);
            events.recordEvent(event, stream);
            assertFalse(waits.isEventComplete(event), device + ": the vendor's not-ready result reads as not complete");
            assertTrue(waits.isEventComplete(event), device + ": the test double runs one step per query");
        } finally {
            events.destroyEvent(event);
            device.free(buffer);
            device.destroyStream(stream);
        }
    }
}
