package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events recorded on a stream with nothing in flight are set from the host at once ({@code vkSetEvent}), with no
 * submission; recorded again behind work, they are reset first and set by that work, so a stream waiting for
 * them still waits.
 */
class IdleStreamEventsTest {
    private static final int SIZE = 16 * 1024 * 1024;
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void anEventRecordedOnAnIdleStreamIsSetBeforeRecordReturns() {
        MemorySegment stream = device.createStream();
        MemorySegment event = device.createEvent();
        try {
            device.synchronizeStream(stream);
            device.recordEvent(event, stream);
            assertTrue(EventPolling.isSet(device.context().device(), event.address()),
                    "nothing was in flight: vkGetEventStatus answers VK_EVENT_SET with no host wait");
            assertTrue(device.isEventComplete(event));
            device.waitEvent(event);
        } finally {
            device.destroyEvent(event);
            device.destroyStream(stream);
        }
    }

    @Test
    void aNewEventOfAnIdleStreamIsSetFromTheHost() {
        MemorySegment stream = device.createStream();
        try {
            device.synchronizeStream(stream);
            MemorySegment event = device.recordNewEvent(stream);
            try {
                assertTrue(EventPolling.isSet(device.context().device(), event.address()), "set before recordNewEvent returned");
            } finally {
                device.destroyEvent(event);
            }
        } finally {
            device.destroyStream(stream);
        }
    }

    @Test
    void anEventSetFromTheHostStillOrdersAStreamWhenRecordedAgainBehindWork() {
        MemorySegment producer = device.createStream();
        MemorySegment consumer = device.createStream();
        MemorySegment event = device.createEvent();
        MemorySegment source = device.allocate(SIZE, 64);
        MemorySegment first = device.allocate(SIZE, 64);
        MemorySegment second = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 4; round++) {
                byte fill = (byte) (round + 1);
                device.synchronizeStream(producer);
                device.recordEvent(event, producer);
                assertTrue(EventPolling.isSet(device.context().device(), event.address()), "round " + round + ": set from the host");
                device.copyFromHost(arena.allocate(SIZE).fill(fill), source, 0, producer);
                device.synchronizeStream(producer);
                // work in flight on the producer: the event is reset and set by a submission behind that work
                device.copyWithinDevice(source, 0, first, 0, SIZE, producer);
                device.recordEvent(event, producer);
                device.streamWaitEvent(consumer, event);
                device.copyWithinDevice(first, 0, second, 0, SIZE, consumer);
                MemorySegment back = arena.allocate(SIZE);
                device.copyToHost(second, 0, back, consumer);
                byte[] expected = new byte[SIZE];
                Arrays.fill(expected, fill);
                assertArrayEquals(expected, back.toArray(JAVA_BYTE),
                        "round " + round + ": the consumer saw the producer's copy only after the event");
            }
        } finally {
            device.destroyEvent(event);
            device.free(source);
            device.free(first);
            device.free(second);
            device.destroyStream(producer);
            device.destroyStream(consumer);
        }
    }
}
