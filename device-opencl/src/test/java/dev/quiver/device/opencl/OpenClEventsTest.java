package dev.quiver.device.opencl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events across two queues on the real driver: work on one queue is held behind a gate (a user event the
 * test opens), and the other queue, and a host thread, must wait for the event recorded after that work.
 */
class OpenClEventsTest {
    private static final int SIZE = 4 << 20;

    @Test
    void aQueueAndAHostThreadWaitForAnEventRecordedOnAnotherQueue() throws Exception {
        OpenClDevice device = OpenClTestDevices.first();
        OpenCl cl = OpenClTestDevices.library();
        MemorySegment producer = device.createStream();
        MemorySegment consumer = device.createStream();
        MemorySegment buffer = device.allocate(SIZE, 64);
        MemorySegment gate = cl.createUserEvent(device.context());
        MemorySegment event = device.createEvent();
        MemorySegment consumerDone = MemorySegment.NULL;
        try (Arena arena = Arena.ofShared()) {
            byte[] pattern = new byte[SIZE];
            for (int i = 0; i < SIZE; i++) {
                pattern[i] = (byte) (i * 7 + 3);
            }
            MemorySegment source = arena.allocate(SIZE, 64);
            MemorySegment.copy(pattern, 0, source, JAVA_BYTE, 0, SIZE);
            MemorySegment back = arena.allocate(SIZE, 64);

            cl.enqueueBarrier(producer, gate);
            device.copyFromHost(source, buffer, 0, producer);
            device.recordEvent(event, producer);
            device.streamWaitEvent(consumer, event);
            device.copyToHost(buffer, 0, back, consumer);
            consumerDone = cl.enqueueMarker(consumer);
            cl.flush(consumer);
            CompletableFuture<Void> hostWaiter = CompletableFuture.runAsync(() -> device.waitEvent(event));

            Thread.sleep(200);
            assertFalse(device.isEventComplete(event), "the producer queue is held by the gate, so is its event");
            assertNotEquals(ClConstants.CL_COMPLETE, cl.eventStatus(consumerDone), "the consumer queue waits for the event");
            assertFalse(hostWaiter.isDone(), "the host thread waits for the event");
            assertEquals(0, back.get(JAVA_BYTE, SIZE - 1), "nothing was read yet");

            assertEquals(0, cl.setUserEventStatus(gate, ClConstants.CL_COMPLETE));
            device.synchronizeStream(consumer);
            hostWaiter.get(1, TimeUnit.MINUTES);
            assertTrue(device.isEventComplete(event));
            assertArrayEquals(pattern, back.toArray(JAVA_BYTE), "the consumer read what the producer wrote");
        } finally {
            device.synchronizeStream(producer);
            if (!consumerDone.equals(MemorySegment.NULL)) {
                cl.releaseEvent(consumerDone);
            }
            cl.releaseEvent(gate);
            device.destroyEvent(event);
            device.free(buffer);
            device.destroyStream(producer);
            device.destroyStream(consumer);
        }
    }

    @Test
    void eventsRecordedFromManyThreadsAllComplete() throws Exception {
        OpenClDevice device = OpenClTestDevices.first();
        long failuresBefore = MarkerForwarding.failures();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                workers.add(CompletableFuture.runAsync(() -> {
                    MemorySegment stream = device.createStream();
                    try {
                        for (int i = 0; i < 250; i++) {
                            MemorySegment event = device.createEvent();
                            try {
                                device.recordEvent(event, i % 2 == 0 ? stream : device.defaultStream());
                                if (i % 3 == 0) {
                                    device.streamWaitEvent(stream, event);
                                }
                                device.waitEvent(event);
                                assertTrue(device.isEventComplete(event));
                            } finally {
                                device.destroyEvent(event);
                            }
                        }
                    } finally {
                        device.destroyStream(stream);
                    }
                }, pool));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(failuresBefore, MarkerForwarding.failures(), "no completion callback failed");
    }
}
