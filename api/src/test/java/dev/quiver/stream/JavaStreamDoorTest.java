package dev.quiver.stream;

import dev.quiver.Copies;
import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.type.Field;
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
 * Streams of arrays made in this JVM ({@link DeviceArrayStream#of}) and mapped streams
 * ({@link DeviceArrayStream#map}): no C struct between the source and the consumer, the same ownership, failure
 * and close rules as an imported stream, and export to C still works.
 */
class JavaStreamDoorTest {
    private final TestDoubleProvider vendor = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(vendor, HostProvider.host()), BackendSelection.all());

    private List<DeviceArray> batches(int n) {
        List<DeviceArray> batches = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batches.add(HostVector.int64("x", (long) i, (long) i * 10).toDeviceArray(devices));
        }
        return batches;
    }

    @Test
    void arraysMoveThroughWithoutCAndCloseClosesTheSource() {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> batches = batches(3);
        boolean[] closed = {false};
        Iterator<DeviceArray> it = batches.iterator();
        class Source implements Iterator<DeviceArray>, AutoCloseable {
            public boolean hasNext() { return it.hasNext(); }
            public DeviceArray next() { return it.next(); }
            public void close() { closed[0] = true; }
        }
        try (DeviceArrayStream stream = DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, new Source())) {
            assertEquals(batches.getFirst().field(), stream.schema());
            assertEquals(DeviceType.CPU, stream.deviceType());
            long sum = 0;
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    sum += (Long) ArrayReader.of(batch).getObject(1);
                }
            }
            assertEquals(30, sum);
            assertThrows(NoSuchElementException.class, stream::next);
        }
        assertTrue(closed[0], "closing the stream closed the source");
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void mapCopiesEachBatchAsItIsPulled() {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> batches = batches(4);
        Field field = batches.getFirst().field();
        try (DeviceArrayStream onDevice = DeviceArrayStream.of(field, DeviceType.CPU, batches.iterator())
                .map(field, DeviceType.EXT_DEV, batch -> {
                    try (batch) {
                        return Copies.toDevice(batch, devices.get(DeviceType.EXT_DEV, 0));
                    }
                })) {
            int n = 0;
            while (onDevice.hasNext()) {
                try (DeviceArray batch = onDevice.next(); DeviceArray back = Copies.toHost(batch)) {
                    assertEquals(DeviceType.EXT_DEV, batch.deviceType());
                    assertEquals((long) n, ArrayReader.of(back).getObject(0));
                    n++;
                }
            }
            assertEquals(4, n);
        }
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void aWrongArrayOrAFailingSourceFailsTheStreamAndLeaksNothing() {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> mixed = new ArrayList<>(batches(1));
        mixed.add(HostVector.utf8("s", "a").toDeviceArray(devices));
        try (DeviceArrayStream stream = DeviceArrayStream.of(mixed.getFirst().field(), DeviceType.CPU, mixed.iterator())) {
            stream.next().close();
            InvalidArrowException wrong = assertThrows(InvalidArrowException.class, stream::hasNext);
            assertTrue(wrong.getMessage().contains("array 1 of the source is CPU"), wrong.getMessage());
            assertThrows(IllegalStateException.class, stream::hasNext, "a failed stream stays failed");
        }
        assertEquals(exports, Diagnostics.liveExports(), "the wrong array was closed");
        Iterator<DeviceArray> failing = new Iterator<>() {
            public boolean hasNext() { return true; }
            public DeviceArray next() { throw new IllegalStateException("the source broke"); }
        };
        try (DeviceArrayStream stream = DeviceArrayStream.of(HostVector.int64("x", 1L).field(), DeviceType.CPU, failing)) {
            StreamException e = assertThrows(StreamException.class, stream::hasNext);
            assertTrue(e.getMessage().contains("get_next: the Java source failed at array 0: "), e.getMessage());
            assertEquals("the source broke", e.getCause().getMessage());
        }
        assertThrows(NullPointerException.class, () -> DeviceArrayStream.of(null, DeviceType.CPU, List.<DeviceArray>of().iterator()));
    }

    @Test
    void aJavaStreamExportsToCAndBack() {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> batches = batches(3);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = ArrowDeviceArrayStreamLayout.allocate(arena);
            DeviceArrayStream java = DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, batches.iterator());
            DeviceArrayStream.of(java.schema(), DeviceType.CPU, java).exportTo(out);
            try (DeviceArrayStream back = DeviceArrayStream.importFrom(out, ImportOptions.on(devices))) {
                int n = 0;
                while (back.hasNext()) {
                    back.next().close();
                    n++;
                }
                assertEquals(3, n);
            }
            assertTrue(java.isClosed(), "releasing the C stream closed the Java one");
            assertFalse(java.toString().isEmpty());
        }
        assertEquals(exports, Diagnostics.liveExports());
    }
}
