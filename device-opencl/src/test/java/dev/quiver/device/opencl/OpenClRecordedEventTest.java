package dev.quiver.device.opencl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device waits for a recorded event through the marker it follows, while the event itself, the handle
 * that goes into {@code sync_event}, still completes for C consumers that wait on it
 * ({@code opencl_app.c}).
 */
class OpenClRecordedEventTest {

    @Test
    void anEventTheDeviceWaitedForAlsoCompletesForACConsumer() {
        OpenClDevice device = OpenClTestDevices.first();
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < 200; i++) {
                MemorySegment event = device.createEvent();
                try {
                    MemorySegment stream = i % 2 == 0 ? device.defaultStream() : MemorySegment.NULL;
                    device.recordEvent(event, stream);
                    device.waitEvent(event);
                    assertTrue(device.isEventComplete(event));
                    MemorySegment syncEvent = arena.allocateFrom(ADDRESS, event);
                    assertEquals(ClConstants.CL_COMPLETE, COpenClApplication.waitSyncEvent(syncEvent),
                            "C waits on the cl_event itself and sees it complete");
                } finally {
                    device.destroyEvent(event);
                }
            }
        }
    }
}
