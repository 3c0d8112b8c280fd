package dev.quiver.stream;

import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.InvalidArrowException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static dev.quiver.stream.PullProducers.MADE;
import static dev.quiver.stream.PullProducers.ARRAYS_RELEASED;
import static dev.quiver.stream.PullProducers.SCHEMAS_RELEASED;
import static dev.quiver.stream.PullProducers.STREAMS_RELEASED;
import static dev.quiver.stream.PullProducers.GET_NEXT_CALLS;
import static dev.quiver.stream.PullProducers.BLOCKED;
import static dev.quiver.stream.PullProducers.stat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A C producer's ArrowDeviceArrayStream ({@code pull_producer.c}) consumed as a {@link DeviceArrayStream}. */
class PullStreamImportTest {
    private static final int CPU = DeviceType.CPU.code();

    private final PullProducers producers = new PullProducers();

    @AfterEach
    void free() {
        for (MemorySegment p : producers.all()) {
            assertEquals(0, stat(p, PullProducers.CALLS_AFTER_RELEASE), "no call reached C after the stream's release");
        }
        producers.close();
    }

    private MemorySegment producer(long batches, int deviceType, long mismatchAt, long invalidAt, long failAt, int failCode,
                                   int schemaFailCode, boolean block) {
        return producers.producer(batches, deviceType, mismatchAt, invalidAt, failAt, failCode, schemaFailCode, block);
    }

    private MemorySegment producer(long batches) {
        return producer(batches, CPU, -1, -1, -1, 0, 0, false);
    }

    private MemorySegment export(MemorySegment producer) {
        return producers.export(producer);
    }

    @Test
    void readsTenThousandBatchesAndReleasesEachOnce() {
        MemorySegment p = producer(10_000);
        long batches = 0;
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))) {
            assertEquals(Batches.SCHEMA, stream.schema());
            assertEquals(DeviceType.CPU, stream.deviceType());
            for (DeviceArray array : (Iterable<DeviceArray>) () -> stream) {
                try (array) {
                    assertEquals(Batches.values(batches), Batches.read(array));
                    assertEquals(DeviceType.CPU, array.deviceType());
                }
                batches++;
            }
            assertFalse(stream.hasNext(), "the end stays the end");
            assertThrows(NoSuchElementException.class, stream::next);
        }
        assertEquals(10_000, batches);
        assertEquals(10_000, stat(p, MADE));
        assertEquals(10_000, stat(p, ARRAYS_RELEASED));
        assertEquals(1, stat(p, SCHEMAS_RELEASED));
        assertEquals(1, stat(p, STREAMS_RELEASED));
    }

    @Test
    void movesTheStructAndRefusesAReleasedOne() {
        MemorySegment p = producer(1);
        MemorySegment struct = export(p);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(struct, ImportOptions.on(Batches.NO_BACKENDS))) {
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> DeviceArrayStream.importFrom(struct, ImportOptions.on(Batches.NO_BACKENDS)));
            assertEquals("release", e.fieldPath());
            assertTrue(stream.hasNext());
        }
        assertEquals(1, stat(p, STREAMS_RELEASED));
        assertEquals(1, stat(p, ARRAYS_RELEASED), "an array fetched by hasNext() but never taken is released by close()");
    }

    @Test
    void arraysOutliveTheStream() {
        MemorySegment p = producer(5);
        List<DeviceArray> taken = new ArrayList<>();
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))) {
            for (int i = 0; i < 3; i++) {
                taken.add(stream.next());
            }
        }
        assertEquals(1, stat(p, STREAMS_RELEASED));
        assertEquals(0, stat(p, ARRAYS_RELEASED));
        for (int i = 0; i < taken.size(); i++) {
            try (DeviceArray array = taken.get(i)) {
                assertEquals(Batches.values(i), Batches.read(array));
            }
        }
        assertEquals(3, stat(p, ARRAYS_RELEASED));
    }

    @Test
    void getNextErrorCarriesTheCodeAndTheProducersMessage() {
        MemorySegment p = producer(10, CPU, -1, -1, 2, Errno.EIO.code(), 0, false);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))) {
            stream.next().close();
            stream.next().close();
            StreamException e = assertThrows(StreamException.class, stream::hasNext);
            assertEquals(Errno.EIO.code(), e.code());
            assertEquals(Errno.EIO, e.errno().orElseThrow());
            assertTrue(e.getMessage().contains("EIO (5)") && e.getMessage().contains("injected failure at batch 2"), e.getMessage());
            IllegalStateException later = assertThrows(IllegalStateException.class, stream::hasNext);
            assertSame(e, later.getCause(), "a failed stream says why");
        }
        assertEquals(3, stat(p, GET_NEXT_CALLS), "nothing is pulled from a failed stream");
        assertEquals(2, stat(p, ARRAYS_RELEASED));
        assertEquals(1, stat(p, STREAMS_RELEASED));
    }

    @Test
    void getSchemaErrorReleasesTheStream() {
        MemorySegment p = producer(10, CPU, -1, -1, -1, 0, Errno.ENOMEM.code(), false);
        StreamException e = assertThrows(StreamException.class, () -> DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS)));
        assertEquals(Errno.ENOMEM, e.errno().orElseThrow());
        assertTrue(e.getMessage().contains("get_schema") && e.getMessage().contains("injected get_schema failure"), e.getMessage());
        assertEquals(1, stat(p, STREAMS_RELEASED));
    }

    @Test
    void anArrayOnAnotherDeviceTypeIsAClearErrorAndReleasedOnce() {
        MemorySegment p = producer(10, CPU, 1, -1, -1, 0, 0, false);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))) {
            stream.next().close();
            InvalidArrowException e = assertThrows(InvalidArrowException.class, stream::next);
            assertEquals("device_type", e.fieldPath());
            assertTrue(e.getMessage().contains("CUDA") && e.getMessage().contains("stream's device_type is CPU"), e.getMessage());
        }
        assertEquals(2, stat(p, MADE));
        assertEquals(2, stat(p, ARRAYS_RELEASED));
    }

    @Test
    void aStreamOnAnotherDeviceTypeHandsOutItsArrays() {
        MemorySegment p = producer(2, DeviceType.CUDA_HOST.code(), -1, -1, -1, 0, 0, false);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS));
             DeviceArray first = stream.next()) {
            assertEquals(DeviceType.CUDA_HOST, stream.deviceType());
            assertEquals(DeviceType.CUDA_HOST, first.deviceType());
            assertEquals(3, first.length());
        }
        assertEquals(stat(p, MADE), stat(p, ARRAYS_RELEASED));
    }

    @Test
    void anInvalidArrayIsRejectedAndReleasedOnce() {
        MemorySegment p = producer(10, CPU, -1, 0, -1, 0, 0, false);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS))) {
            InvalidArrowException e = assertThrows(InvalidArrowException.class, stream::hasNext);
            assertTrue(e.getMessage().contains("length"), e.getMessage());
        }
        assertEquals(1, stat(p, MADE));
        assertEquals(1, stat(p, ARRAYS_RELEASED));
        assertEquals(1, stat(p, STREAMS_RELEASED));
    }

    @Test
    void concurrentUseIsRefusedAndCloseWaitsForTheRunningCall() throws Exception {
        MemorySegment p = producer(10, CPU, -1, -1, -1, 0, 0, true);
        DeviceArrayStream stream = DeviceArrayStream.importFrom(export(p), ImportOptions.on(Batches.NO_BACKENDS));
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(stream::hasNext);
        while (stat(p, BLOCKED) == 0) {
            Thread.onSpinWait();
        }
        IllegalStateException busy = assertThrows(IllegalStateException.class, stream::hasNext);
        assertTrue(busy.getMessage().contains("in use by another thread"), busy.getMessage());
        stream.close();
        assertTrue(stream.isClosed());
        assertEquals(0, stat(p, STREAMS_RELEASED), "the stream is not released under a running get_next");
        StreamC.call(() -> {
            StreamC.PULL_PRODUCER_UNBLOCK.invokeExact(p);
            return null;
        });
        ExecutionException e = assertThrows(ExecutionException.class, () -> first.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("closed by another thread"), e.getCause().getMessage());
        assertEquals(1, stat(p, STREAMS_RELEASED));
        assertEquals(1, stat(p, GET_NEXT_CALLS), "the refused call never reached C");
        assertEquals(stat(p, MADE), stat(p, ARRAYS_RELEASED));
        assertThrows(IllegalStateException.class, stream::hasNext);
        stream.close();
        assertEquals(1, stat(p, STREAMS_RELEASED), "close is idempotent");
    }
}
