package dev.quiver.stream;

import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static dev.quiver.stream.PullProducers.MADE;
import static dev.quiver.stream.PullProducers.ARRAYS_RELEASED;
import static dev.quiver.stream.PullProducers.STREAMS_RELEASED;
import static dev.quiver.stream.PullProducers.stat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A C producer's stream ({@code pull_producer.c}) imported and exported again, as a relay: its arrays pass
 * to the consumer without becoming Java arrays, checked as an import checks them, each released once.
 */
class StreamRelayTest {
    private static final int CPU = DeviceType.CPU.code();

    private final PullProducers producers = new PullProducers();

    @AfterEach
    void free() {
        producers.close();
    }

    private MemorySegment producer(long batches, long mismatchAt, long invalidAt) {
        return producers.producer(batches, CPU, mismatchAt, invalidAt, -1, 0, 0, false);
    }

    private MemorySegment export(MemorySegment producer) {
        return producers.export(producer);
    }

    /** @return the producer's stream imported and exported again into a new struct */
    private MemorySegment relayed(DeviceArrayStream imported) {
        MemorySegment out = producers.streamStruct();
        DeviceArrayStream.of(imported.schema(), imported.deviceType(), imported).exportTo(out);
        return out;
    }

    @Test
    void relayedArraysArriveIntactAndAreReleasedOnceByTheirLastOwner() {
        MemorySegment p = producer(100, -1, -1);
        MemorySegment relayed = relayed(DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS)));
        long batches = 0;
        try (DeviceArrayStream consumer = DeviceArrayStream.importFrom(relayed, ImportOptions.on(Batches.NO_BACKENDS))) {
            while (consumer.hasNext()) {
                try (DeviceArray array = consumer.next()) {
                    assertEquals(Batches.values(batches), Batches.read(array));
                }
                batches++;
                assertEquals(batches, stat(p, ARRAYS_RELEASED), "the consumer's close released the producer's array");
            }
        }
        assertEquals(100, batches);
        assertEquals(100, stat(p, MADE));
        assertEquals(1, stat(p, STREAMS_RELEASED), "releasing the relayed stream released the producer's");
    }

    @Test
    void anArrayFetchedBeforeTheRelayIsHandedOutFirst() {
        MemorySegment p = producer(3, -1, -1);
        DeviceArrayStream imported = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS));
        assertTrue(imported.hasNext());
        try (DeviceArrayStream consumer = DeviceArrayStream.importFrom(relayed(imported), ImportOptions.on(Batches.NO_BACKENDS))) {
            for (long b = 0; b < 3; b++) {
                try (DeviceArray array = consumer.next()) {
                    assertEquals(Batches.values(b), Batches.read(array));
                }
            }
            assertFalse(consumer.hasNext());
        }
        assertEquals(3, stat(p, ARRAYS_RELEASED));
        assertEquals(1, stat(p, STREAMS_RELEASED));
    }

    @Test
    void anInvalidArrayIsRefusedByTheRelayAndReleasedOnce() {
        MemorySegment p = producer(10, -1, 1);
        try (DeviceArrayStream consumer = DeviceArrayStream.importFrom(relayed(DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))), ImportOptions.on(Batches.NO_BACKENDS))) {
            consumer.next().close();
            StreamException e = assertThrows(StreamException.class, consumer::next);
            assertEquals(Errno.EINVAL.code(), e.code());
            assertTrue(e.getMessage().contains("array 1") && e.getMessage().contains("length"), e.getMessage());
        }
        assertEquals(2, stat(p, MADE));
        assertEquals(2, stat(p, ARRAYS_RELEASED));
        assertEquals(1, stat(p, STREAMS_RELEASED));
    }

    @Test
    void anArrayOnAnotherDeviceTypeIsRefusedByTheRelayAndReleasedOnce() {
        MemorySegment p = producer(10, 1, -1);
        try (DeviceArrayStream consumer = DeviceArrayStream.importFrom(relayed(DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))), ImportOptions.on(Batches.NO_BACKENDS))) {
            consumer.next().close();
            StreamException e = assertThrows(StreamException.class, consumer::next);
            assertTrue(e.getMessage().contains("device_type"), e.getMessage());
        }
        assertEquals(2, stat(p, MADE));
        assertEquals(2, stat(p, ARRAYS_RELEASED));
    }
}
