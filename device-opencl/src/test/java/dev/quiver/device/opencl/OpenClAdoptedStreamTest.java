package dev.quiver.device.opencl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A device's native handles, and command queues that C code ({@code opencl_objects.c}) makes on them and
 * hands to the device with {@code adoptStream}: every stream operation runs on an adopted queue, forgetting
 * releases exactly the references it should (counted by C with {@code CL_QUEUE_REFERENCE_COUNT}), and queues
 * the device cannot use are refused without being retained. PoCL counts a reference to a queue for the last
 * command that wrote each buffer, held until the buffer is freed, so counts taken after copies are compared
 * with the count just before.
 */
class OpenClAdoptedStreamTest {
    private static final int SIZE = 1 << 16;

    @Test
    void nativeHandlesAreTheDevicesPlatformContextDeviceAndDefaultQueue() {
        OpenClDevice device = OpenClTestDevices.first();
        Map<String, MemorySegment> handles = device.nativeHandles();
        assertEquals(List.of("cl_platform_id", "cl_context", "cl_device_id", "cl_command_queue"), List.copyOf(handles.keySet()));
        MemorySegment queue = handles.get("cl_command_queue");
        assertEquals(device.defaultStream().address(), queue.address(), "the queue is the default stream");
        COpenClObjects.Owner owner = COpenClObjects.queueOwner(queue);
        assertEquals(handles.get("cl_context").address(), owner.context().address(), "C finds the queue in the context");
        assertEquals(handles.get("cl_device_id").address(), owner.device().address(), "C finds the queue on the device");
        assertEquals(handles.get("cl_platform_id").address(), COpenClObjects.devicePlatform(owner.device()).address(),
                "C finds the device on the platform");
        assertThrows(UnsupportedOperationException.class, () -> handles.put("cl_context", MemorySegment.NULL));
    }

    @Test
    void everyStreamOperationRunsOnAnAdoptedQueue() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment queue = newQueue(device, false);
        MemorySegment first = device.allocate(SIZE, 64);
        MemorySegment second = device.allocate(SIZE, 64);
        MemorySegment event = device.createEvent();
        try (Arena arena = Arena.ofShared()) {
            assertEquals(1, COpenClObjects.queueReferences(queue));
            MemorySegment stream = device.adoptStream(queue);
            assertEquals(queue.address(), stream.address(), "the stream handle is the queue");
            assertEquals(2, COpenClObjects.queueReferences(queue), "adoption retains the queue once");

            MemorySegment source = pattern(arena);
            MemorySegment back = arena.allocate(SIZE);
            device.copyFromHost(source, first, 0, stream);
            device.copyWithinDevice(first, 0, second, 0, SIZE, stream);
            device.copyToHost(second, 0, back, stream);
            device.recordEvent(event, stream);
            device.waitEvent(event);
            assertTrue(device.isEventComplete(event));
            assertArrayEquals(source.toArray(JAVA_BYTE), back.toArray(JAVA_BYTE),
                    "host -> device -> device -> host on the adopted queue, complete when the event recorded on it is");

            MemorySegment half = arena.allocate(SIZE / 2).fill((byte) 0x5A);
            device.copyFromHost(half, second, SIZE / 2, stream);
            device.synchronizeStream(stream);
            MemorySegment read = arena.allocate(SIZE);
            COpenClObjects.read(queue, second, 0, read);
            assertArrayEquals(source.asSlice(0, SIZE / 2).toArray(JAVA_BYTE), read.asSlice(0, SIZE / 2).toArray(JAVA_BYTE));
            assertArrayEquals(half.toArray(JAVA_BYTE), read.asSlice(SIZE / 2).toArray(JAVA_BYTE),
                    "the queue's maker reads what Quiver wrote on it once synchronizeStream returned");

            int held = COpenClObjects.queueReferences(queue);
            device.forgetStream(stream, false);
            assertEquals(held - 1, COpenClObjects.queueReferences(queue), "forgetting releases Quiver's reference only");
            IllegalArgumentException forgotten = assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(queue));
            assertTrue(forgotten.getMessage().contains("is not a command queue of"), forgotten.getMessage());
        } finally {
            device.destroyEvent(event);
            device.free(first);
            device.free(second);
            COpenClObjects.releaseQueue(queue);
        }
    }

    @Test
    void forgettingWithDestroyWaitsForTheWorkAndReleasesTheMakersReferenceToo() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment queue = newQueue(device, false);
        COpenClObjects.retainQueue(queue);
        MemorySegment buffer = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment stream = device.adoptStream(queue);
            assertEquals(3, COpenClObjects.queueReferences(queue), "the maker's, the watcher's and Quiver's");
            MemorySegment source = pattern(arena);
            device.copyFromHost(source, buffer, 0, stream);
            device.forgetStream(stream, true);
            MemorySegment back = arena.allocate(SIZE);
            COpenClObjects.read(device.defaultStream(), buffer, 0, back);
            assertArrayEquals(source.toArray(JAVA_BYTE), back.toArray(JAVA_BYTE), "the work enqueued before the destroy completed");
            device.free(buffer);
            assertEquals(1, COpenClObjects.queueReferences(queue),
                    "destroy released Quiver's and the maker's references (once the buffer its last write went to is freed)");
        } finally {
            COpenClObjects.releaseQueue(queue);
        }
    }

    @Test
    void refusesQueuesItCannotUseAndRetainsNothingButAdoptsItsOwn() {
        OpenClDevice device = OpenClTestDevices.first();
        COpenClApplication.Objects other = COpenClApplication.create(false);
        MemorySegment outOfOrder = newQueue(device, true);
        MemorySegment queue = newQueue(device, false);
        try {
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class, () -> device.adoptStream(other.queue()));
            assertTrue(foreign.getMessage().contains("belongs to context"), foreign.getMessage());
            assertEquals(1, COpenClObjects.queueReferences(other.queue()), "a queue of another context is not retained");
            IllegalArgumentException unordered = assertThrows(IllegalArgumentException.class, () -> device.adoptStream(outOfOrder));
            assertTrue(unordered.getMessage().contains("out-of-order"), unordered.getMessage());
            assertEquals(1, COpenClObjects.queueReferences(outOfOrder), "an out-of-order queue is not retained");
            assertThrows(IllegalArgumentException.class, () -> device.adoptStream(MemorySegment.NULL));
            MemorySegment defaultAdopted = device.adoptStream(device.defaultStream());
            device.synchronizeStream(defaultAdopted);
            device.forgetStream(defaultAdopted, false);
            device.synchronizeStream(device.defaultStream());
            assertThrows(IllegalArgumentException.class, () -> device.forgetStream(outOfOrder, false), "never adopted");
            assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(other.queue()), "never adopted");

            MemorySegment stream = device.adoptStream(queue);
            MemorySegment again = device.adoptStream(queue);
            assertEquals(3, COpenClObjects.queueReferences(queue), "each adoption holds its own reference");
            device.forgetStream(again, false);
            assertThrows(IllegalArgumentException.class, () -> device.destroyStream(stream), "an adopted queue is forgotten, not destroyed");
            assertEquals(2, COpenClObjects.queueReferences(queue), "refusals retained nothing more");
            device.forgetStream(stream, false);
            assertThrows(IllegalArgumentException.class, () -> device.forgetStream(stream, false), "forgotten once");
            assertEquals(1, COpenClObjects.queueReferences(queue));
        } finally {
            COpenClObjects.releaseQueue(queue);
            COpenClObjects.releaseQueue(outOfOrder);
            COpenClApplication.release(other);
        }
    }

    /** @return a queue made by C on the device's context and device, owned by the test */
    static MemorySegment newQueue(OpenClDevice device, boolean outOfOrder) {
        Map<String, MemorySegment> handles = device.nativeHandles();
        return COpenClObjects.createQueue(handles.get("cl_context"), handles.get("cl_device_id"), outOfOrder);
    }

    /** @return {@value #SIZE} bytes of a pattern without zeros */
    static MemorySegment pattern(Arena arena) {
        MemorySegment bytes = arena.allocate(SIZE, 64);
        for (int i = 0; i < SIZE; i++) {
            bytes.set(JAVA_BYTE, i, (byte) (i % 251 + 1));
        }
        return bytes;
    }
}
