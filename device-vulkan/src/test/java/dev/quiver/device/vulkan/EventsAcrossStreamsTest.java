package dev.quiver.device.vulkan;

import dev.quiver.spi.EventWaits;
import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceStream;
import dev.quiver.Devices;
import dev.quiver.SyncEvent;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.tck.SampleData;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code VkEvent}s between two streams of lavapipe: {@code vkCmdSetEvent} on one stream,
 * {@code vkCmdWaitEvents} on the other, host waits on the setting submission's fence, and the
 * {@code sync_event} of arrays Quiver copies to the device.
 */
class EventsAcrossStreamsTest {
    private static final int SIZE = 16 * 1024 * 1024;
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void aStreamWaitsForAnEventRecordedOnAnother() {
        MemorySegment producer = device.createStream();
        MemorySegment consumer = device.createStream();
        MemorySegment event = device.createEvent();
        MemorySegment first = device.allocate(SIZE, 64);
        MemorySegment second = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 4; round++) {
                byte fill = (byte) (round + 1);
                device.copyFromHost(arena.allocate(SIZE).fill(fill), first, 0, producer);
                device.recordEvent(event, producer);
                device.streamWaitEvent(consumer, event);
                device.copyWithinDevice(first, 0, second, 0, SIZE, consumer);
                MemorySegment back = arena.allocate(SIZE);
                device.copyToHost(second, 0, back, consumer);
                byte[] expected = new byte[SIZE];
                Arrays.fill(expected, fill);
                assertArrayEquals(expected, back.toArray(JAVA_BYTE),
                        "round " + round + ": the consumer stream saw the producer's bytes only after the event");
                assertTrue(device.isEventComplete(event), "the consumer's work came after the event, so it is set");
            }
        } finally {
            device.destroyEvent(event);
            device.free(first);
            device.free(second);
            device.destroyStream(producer);
            device.destroyStream(consumer);
        }
    }

    @Test
    void hostWaitsOnTheSubmissionThatSetsTheEvent() {
        MemorySegment stream = device.createStream();
        MemorySegment event = device.createEvent();
        MemorySegment buffer = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofConfined()) {
            device.copyFromHost(arena.allocate(SIZE).fill((byte) 3), buffer, 0, stream);
            device.recordEvent(event, stream);
            device.waitEvent(event);
            assertTrue(device.isEventComplete(event));
            device.recordEvent(event, stream);
            device.waitEvent(event);
            assertTrue(device.isEventComplete(event), "a re-recorded event completes again");
        } finally {
            device.destroyEvent(event);
            device.free(buffer);
            device.destroyStream(stream);
        }
    }

    @Test
    void destroyingAnEventWaitsForTheWorkThatUsesIt() {
        MemorySegment producer = device.createStream();
        MemorySegment consumer = device.createStream();
        MemorySegment buffer = device.allocate(SIZE, 64);
        MemorySegment event = device.createEvent();
        try (Arena arena = Arena.ofConfined()) {
            device.copyFromHost(arena.allocate(SIZE), buffer, 0, producer);
            device.recordEvent(event, producer);
            device.streamWaitEvent(consumer, event);
            device.destroyEvent(event);
            assertThrows(IllegalArgumentException.class, () -> device.destroyEvent(event), "destroyed once");
        } finally {
            device.free(buffer);
            device.destroyStream(producer);
            device.destroyStream(consumer);
        }
    }

    @Test
    void anEventNeverRecordedCountsAsComplete() {
        MemorySegment event = device.createEvent();
        try {
            assertTrue(device.isEventComplete(event));
            device.waitEvent(event);
            device.streamWaitEvent(device.defaultStream(), event);
            device.synchronizeStream(device.defaultStream());
        } finally {
            device.destroyEvent(event);
        }
    }

    @Test
    void arraysCopiedToTheDeviceCarryAVkEventPointer() {
        Devices devices = Backends.devices(List.of(new VulkanProvider()), BackendSelection.all());
        Device vulkan = devices.all().getFirst();
        HostVector batch = SampleData.batch(500, 11);
        try (DeviceArray host = batch.toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, vulkan);
             DeviceStream other = vulkan.createStream()) {
            SyncEvent syncEvent = onDevice.syncEvent().orElseThrow();
            long pointed = syncEvent.pointer().reinterpret(JAVA_LONG.byteSize()).get(JAVA_LONG, 0);
            assertEquals(pointed, Backends.of(vulkan).capability(EventWaits.class).orElseThrow().eventFromSyncEvent(syncEvent.pointer()).address(), "sync_event is a VkEvent*");
            other.waitFor(syncEvent);
            other.synchronize();
            syncEvent.waitOnHost();
            assertTrue(syncEvent.isComplete());
            try (DeviceArray back = Copies.toHost(onDevice)) {
                assertEquals(batch.values(), ArrayReader.of(back).values());
            }
        }
    }
}
