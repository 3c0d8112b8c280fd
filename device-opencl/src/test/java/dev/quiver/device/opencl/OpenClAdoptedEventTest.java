package dev.quiver.device.opencl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events that C code ({@code opencl_objects.c}) makes on a device's context (a user event it completes
 * later, a marker on the device's queue) and hands to the device with {@code adoptEvent}: queues and host
 * threads wait for them in order, forgetting releases exactly the references it should (counted by C with
 * {@code CL_EVENT_REFERENCE_COUNT}), an adopted event is never recorded, and events of another context are
 * refused without being retained.
 */
class OpenClAdoptedEventTest {
    private static final int SIZE = 1 << 16;

    @Test
    void anAdoptedQueueWaitsForAnAdoptedUserEventCompletedLater() throws Exception {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment queue = OpenClAdoptedStreamTest.newQueue(device, false);
        MemorySegment gate = COpenClObjects.createUserEvent(device.nativeHandles().get("cl_context"));
        MemorySegment buffer = device.allocate(SIZE, 64);
        MemorySegment done = device.createEvent();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment stream = device.adoptStream(queue);
            MemorySegment adoptedGate = device.adoptEvent(gate);
            assertEquals(gate.address(), adoptedGate.address(), "the event handle is the event");
            assertEquals(2, COpenClObjects.eventReferences(gate), "adoption retains the event once");
            assertFalse(device.isEventComplete(adoptedGate), "a user event nobody completed");

            MemorySegment source = OpenClAdoptedStreamTest.pattern(arena);
            device.copyFromHost(source, buffer, 0, MemorySegment.NULL);
            device.synchronizeStream(MemorySegment.NULL);
            MemorySegment back = arena.allocate(SIZE);
            device.streamWaitEvent(stream, adoptedGate);
            device.copyToHost(buffer, 0, back, stream);
            device.recordEvent(done, stream);
            CompletableFuture<Void> hostWaiter = CompletableFuture.runAsync(() -> device.waitEvent(adoptedGate));

            Thread.sleep(200);
            assertFalse(device.isEventComplete(done), "the adopted queue waits for the adopted event");
            assertFalse(hostWaiter.isDone(), "a host thread waits for the adopted event");
            assertArrayEquals(new byte[SIZE], back.toArray(JAVA_BYTE), "nothing was read yet");

            COpenClObjects.completeUserEvent(gate);
            device.waitEvent(done);
            hostWaiter.get(1, TimeUnit.MINUTES);
            assertTrue(device.isEventComplete(adoptedGate));
            assertArrayEquals(source.toArray(JAVA_BYTE), back.toArray(JAVA_BYTE), "the read ran once the event completed");

            device.forgetStream(stream, false);
            device.forgetEvent(adoptedGate, false);
            assertThrows(IllegalArgumentException.class, () -> device.forgetEvent(adoptedGate, false), "forgotten once");
        } finally {
            device.destroyEvent(done);
            device.free(buffer);
            COpenClObjects.releaseEvent(gate);
            COpenClObjects.releaseQueue(queue);
        }
    }

    @Test
    void anAdoptedMarkerIsWaitedForAndNeverRecorded() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment buffer = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment source = OpenClAdoptedStreamTest.pattern(arena);
            device.copyFromHost(source, buffer, 0, device.defaultStream());
            MemorySegment marker = COpenClObjects.enqueueMarker(device.nativeHandles().get("cl_command_queue"));
            MemorySegment adopted = device.adoptEvent(marker);
            device.waitEvent(adopted);
            assertTrue(device.isEventComplete(adopted));
            assertEquals(ClConstants.CL_COMPLETE, COpenClObjects.eventStatus(marker));
            MemorySegment back = arena.allocate(SIZE);
            COpenClObjects.read(device.defaultStream(), buffer, 0, back);
            assertArrayEquals(source.toArray(JAVA_BYTE), back.toArray(JAVA_BYTE), "the marker completed after Quiver's copy");

            IllegalArgumentException recorded = assertThrows(IllegalArgumentException.class,
                    () -> device.recordEvent(adopted, device.defaultStream()));
            assertTrue(recorded.getMessage().contains("adopted cl_event") && recorded.getMessage().contains("cannot be recorded"),
                    recorded.getMessage());
            assertThrows(IllegalArgumentException.class, () -> device.destroyEvent(adopted), "an adopted event is forgotten, not destroyed");
            device.forgetEvent(adopted, true);
        } finally {
            device.free(buffer);
        }
    }

    @Test
    void forgettingReleasesQuiversReferenceAndWithDestroyTheMakersToo() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment event = COpenClObjects.createUserEvent(device.nativeHandles().get("cl_context"));
        COpenClObjects.retainEvent(event);
        try {
            MemorySegment adopted = device.adoptEvent(event);
            assertEquals(3, COpenClObjects.eventReferences(event), "the maker's, the watcher's and Quiver's");
            device.forgetEvent(adopted, false);
            assertEquals(2, COpenClObjects.eventReferences(event), "forgetting releases Quiver's reference only");
            adopted = device.adoptEvent(event);
            assertEquals(3, COpenClObjects.eventReferences(event), "an event may be adopted again once forgotten");
            device.forgetEvent(adopted, true);
            assertEquals(1, COpenClObjects.eventReferences(event), "destroy released Quiver's and the maker's references");
        } finally {
            COpenClObjects.releaseEvent(event);
        }
    }

    @Test
    void refusesEventsItCannotUseAndRetainsNothingButAdoptsItsOwn() {
        OpenClDevice device = OpenClTestDevices.first();
        COpenClApplication.Objects other = COpenClApplication.create(false);
        MemorySegment foreign = COpenClObjects.createUserEvent(other.context());
        MemorySegment own = device.createEvent();
        try {
            IllegalArgumentException wrongContext = assertThrows(IllegalArgumentException.class, () -> device.adoptEvent(foreign));
            assertTrue(wrongContext.getMessage().contains("belongs to context"), wrongContext.getMessage());
            assertEquals(1, COpenClObjects.eventReferences(foreign), "an event of another context is not retained");
            assertThrows(IllegalArgumentException.class, () -> device.adoptEvent(MemorySegment.NULL));
            MemorySegment ownAdopted = device.adoptEvent(own);
            assertEquals(2, COpenClObjects.eventReferences(own), "adopting an event of createEvent holds its own reference");
            device.forgetEvent(ownAdopted, false);
            assertEquals(1, COpenClObjects.eventReferences(own), "forgetting let go of that reference only");
            assertThrows(IllegalArgumentException.class, () -> device.forgetEvent(foreign, false), "never adopted");
            assertThrows(IllegalArgumentException.class, () -> device.forgetEvent(own, false), "made, not adopted");
        } finally {
            device.destroyEvent(own);
            COpenClObjects.releaseEvent(foreign);
            COpenClApplication.release(other);
        }
    }
}
