package dev.quiver.plain;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.InvalidArrowException;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayStreamLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.StreamException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plain {@code ArrowArrayStream} written by Quiver's plain export and read by Quiver's plain import: the
 * arrays arrive as CPU arrays, untrusted checks pass, a failing source ends the stream with its message, and
 * misuse (NULL, a released struct) is refused with every struct released once.
 */
class PlainStreamRoundTripTest {

    @Test
    void batchesCrossAPlainStreamAndArriveOnTheCpu() {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> batches = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            batches.add(HostVector.struct("batch", HostVector.int64("x", (long) b, null), HostVector.utf8("s", "a" + b, "b"))
                    .toDeviceArray(Devices.cpuOnly()));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment plain = ArrowArrayStreamLayout.allocate(arena);
            DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, batches.iterator()).exportPlain(plain, PlainExport.REFUSE);
            try (DeviceArrayStream stream = DeviceArrayStream.importPlain(plain, ImportOptions.on(Devices.cpuOnly()).trust(ProducerTrust.UNTRUSTED))) {
                assertTrue(plain.get(java.lang.foreign.ValueLayout.ADDRESS, ArrowArrayStreamLayout.RELEASE).equals(MemorySegment.NULL),
                        "the plain struct moved in");
                assertEquals(batches.getFirst().field(), stream.schema());
                int seen = 0;
                while (stream.hasNext()) {
                    try (DeviceArray batch = stream.next(); DeviceArray strings = batch.child(batch.field().childIndex("s"))) {
                        assertEquals(DeviceType.CPU, batch.deviceType());
                        Interchange.validateFull(batch);
                        assertEquals("a" + seen, ArrayReader.of(strings).getObject(0));
                        seen++;
                    }
                }
                assertEquals(4, seen);
            }
        }
        assertEquals(exports, Diagnostics.liveExports(), "every array and schema released once");
    }

    @Test
    void aFailingSourceEndsThePlainStreamWithItsMessage() {
        Iterator<DeviceArray> failing = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public DeviceArray next() {
                throw new IllegalArgumentException("the source broke");
            }
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment plain = ArrowArrayStreamLayout.allocate(arena);
            DeviceArrayStream.of(HostVector.int64("x", 1L).field(), DeviceType.CPU, failing).exportPlain(plain, PlainExport.REFUSE);
            try (DeviceArrayStream stream = DeviceArrayStream.importPlain(plain, ImportOptions.defaults())) {
                StreamException e = assertThrows(StreamException.class, stream::hasNext);
                assertTrue(e.getMessage().contains("the source broke"), e.getMessage());
            }
        }
    }

    @Test
    void misuseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> DeviceArrayStream.importPlain(MemorySegment.NULL, ImportOptions.defaults()));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment released = ArrowArrayStreamLayout.allocate(arena);
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> DeviceArrayStream.importPlain(released, ImportOptions.defaults()));
            assertTrue(e.getMessage().contains("already released"), e.getMessage());
            assertThrows(NullPointerException.class, () -> DeviceArrayStream.of(HostVector.int64("x", 1L).field(), DeviceType.CPU, List.<DeviceArray>of().iterator()).exportPlain(ArrowArrayStreamLayout.allocate(arena), null));
            MemorySegment empty = ArrowArrayStreamLayout.allocate(arena);
            DeviceArrayStream.of(HostVector.int64("x", 1L).field(), DeviceType.CPU, List.<DeviceArray>of().iterator()).exportPlain(empty, PlainExport.REFUSE);
            try (DeviceArrayStream stream = DeviceArrayStream.importPlain(empty, ImportOptions.defaults())) {
                assertFalse(stream.hasNext());
                assertThrows(NoSuchElementException.class, stream::next);
            }
        }
    }
}
