package dev.quiver.device.opencl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two ways an event comes to be recorded: {@code recordNewEvent} returns the marker itself, and
 * {@code createEvent} + {@code recordEvent} give a user event that follows a marker. The device waits for
 * either directly, while the handle that goes into {@code sync_event} completes for C consumers that wait on
 * it ({@code opencl_app.c}).
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

    @Test
    void aNewRecordedEventIsAMarkerThatCompletesForTheDeviceAndForC() {
        OpenClDevice device = OpenClTestDevices.first();
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < 200; i++) {
                MemorySegment event = device.recordNewEvent(i % 2 == 0 ? device.defaultStream() : MemorySegment.NULL);
                try {
                    assertEquals(ClConstants.CL_COMMAND_MARKER, commandType(event), "the marker itself, no user event");
                    device.waitEvent(event);
                    assertTrue(device.isEventComplete(event));
                    assertEquals(ClConstants.CL_COMPLETE, COpenClApplication.waitSyncEvent(arena.allocateFrom(ADDRESS, event)));
                    IllegalStateException again = assertThrows(IllegalStateException.class,
                            () -> device.recordEvent(event, device.defaultStream()));
                    assertTrue(again.getMessage().contains("already recorded"), again.getMessage());
                } finally {
                    device.destroyEvent(event);
                }
                assertThrows(IllegalArgumentException.class, () -> device.destroyEvent(event), "destroyed once");
            }
        }
        MemorySegment created = device.createEvent();
        try {
            assertEquals(ClConstants.CL_COMMAND_USER, commandType(created), "createEvent still makes a user event");
        } finally {
            device.destroyEvent(created);
        }
    }

    @Test
    void aNewRecordedEventCompletesOnlyAfterTheWorkBeforeIt() {
        OpenClDevice device = OpenClTestDevices.first();
        OpenCl cl = OpenClTestDevices.library();
        MemorySegment stream = device.createStream();
        MemorySegment gate = cl.createUserEvent(device.context());
        MemorySegment event = MemorySegment.NULL;
        try {
            cl.enqueueBarrier(stream, gate);
            event = device.recordNewEvent(stream);
            assertFalse(device.isEventComplete(event), "the queue is held by the gate, so is the marker after it");
            assertEquals(0, cl.setUserEventStatus(gate, ClConstants.CL_COMPLETE));
            device.waitEvent(event);
            assertTrue(device.isEventComplete(event));
        } finally {
            cl.setUserEventStatus(gate, ClConstants.CL_COMPLETE);
            device.synchronizeStream(stream);
            if (!event.equals(MemorySegment.NULL)) {
                device.destroyEvent(event);
            }
            cl.releaseEvent(gate);
            device.destroyStream(stream);
        }
    }

    private static int commandType(MemorySegment event) {
        OpenCl cl = OpenClTestDevices.library();
        return ClInfo.uint(cl.info(ClFunction.clGetEventInfo), event, ClConstants.CL_EVENT_COMMAND_TYPE,
                "clGetEventInfo(CL_EVENT_COMMAND_TYPE)");
    }
}
