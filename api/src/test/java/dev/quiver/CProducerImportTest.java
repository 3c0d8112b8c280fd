package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * C produces (producer_cases.c, host memory, malloc'd buffers), Java imports, reads and closes; the C
 * producer counts its release calls.
 */
class CProducerImportTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("int32_with_nulls", "i", 2, values(1L, null, 3L, -4L, null, 2147483647L)),
                Arguments.of("int64", "l", 0, values(0L, Long.MAX_VALUE, Long.MIN_VALUE, 42L)),
                Arguments.of("uint8", "C", 0, values(0L, 255L, 128L, 7L)),
                Arguments.of("float32", "f", 1, values(1.5, -0.25, null, 1024.0)),
                Arguments.of("float64", "g", 0, values(3.141592653589793, -1e300, 0.1)),
                Arguments.of("bool", "b", 1, values(true, false, false, true, null, false, true, true, false, true)),
                Arguments.of("utf8_with_nulls", "u", 2, values("hello", null, "", "w\u00f6rld", null)),
                Arguments.of("binary", "z", 1, values(bytes(0, 1, 2), bytes(), bytes(0xff), null)),
                Arguments.of("list_of_int64", "+l", 1, values(values(1L, 2L), values(), null, values(3L, 4L))),
                Arguments.of("struct_of_int32_utf8", "+s", 1, values(row("a", 1L, "b", "x"), null,
                        row("a", null, "b", null), row("a", 4L, "b", "zzz"))),
                Arguments.of("sliced_int32", "i", 1, values(12L, null, 14L)),
                Arguments.of("sliced_utf8", "u", 0, values("bb", "ccc")),
                Arguments.of("sliced_struct", "+s", 0, values(row("a", 2L), row("a", 3L))),
                Arguments.of("empty_int32", "i", 0, values()),
                Arguments.of("empty_utf8", "u", 0, values()),
                Arguments.of("null_type", "n", 3, values(null, null, null)),
                Arguments.of("nested_64", "+l", 0, nested(64, values(7L))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void importsReadsAndReleasesOnce(String name, String format, long nullCount, List<Object> expected) {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, name);
            Counters afterProduce = CProducer.counters();

            DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS));
            assertMovedOut(c);
            CProducer.assertNothingReleasedSince(afterProduce);
            assertEquals(format, array.field().type().format());
            assertEquals(DeviceType.CPU, array.deviceType());
            assertEquals(-1, array.deviceId());
            assertTrue(array.syncEvent().isEmpty());
            assertEquals(expected.size(), array.length());
            assertEquals(nullCount, array.nullCount());
            assertEquals(expected, ArrayReader.of(array).values());

            array.close();
            assertTrue(array.isClosed());
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }

    @Test
    void fieldNamesAndNullabilityComeFromTheSchema() {
        try (Arena arena = Arena.ofConfined()) {
            Structs c = CProducer.produce(arena, "struct_of_int32_utf8");
            try (DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS))) {
                assertEquals("struct", array.field().name());
                assertTrue(array.field().nullable());
                assertEquals(List.of("a", "b"), array.field().children().stream().map(f -> f.name()).toList());
                assertEquals(List.of("i", "u"), array.field().children().stream().map(f -> f.type().format()).toList());
            }
        }
    }

    @Test
    void closingTwiceReleasesOnce() {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, "list_of_int64");
            Counters afterProduce = CProducer.counters();
            DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS));
            array.close();
            array.close();
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
            assertThrows(IllegalStateException.class, () -> Interchange.arrowArray(array), "use after close");
        }
    }

    @Test
    void closeFromAnotherThreadReleasesOnce() throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, "struct_of_int32_utf8");
            Counters afterProduce = CProducer.counters();
            DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS));
            Thread closer = new Thread(array::close, "closer");
            closer.start();
            closer.join();
            assertTrue(array.isClosed());
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
            array.close();
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }

    @Test
    void racingClosesReleaseOnce() throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, "utf8_with_nulls");
            Counters afterProduce = CProducer.counters();
            DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS));
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    array.close();
                });
                t.start();
                threads.add(t);
            }
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }

    @Test
    void importLeavesTheProducerStructsReleasedAndTheirDataReadable() {
        try (Arena arena = Arena.ofConfined()) {
            Structs c = CProducer.produce(arena, "int64");
            MemorySegment release = c.array().get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE);
            try (DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS))) {
                assertFalse(release.equals(MemorySegment.NULL));
                assertEquals(release, Interchange.arrowArray(array).get(ADDRESS, ArrowArrayLayout.RELEASE), "moved, callback kept");
                assertMovedOut(c);
                assertEquals(Long.MAX_VALUE, ArrayReader.of(array).getLong(1));
            }
        }
    }

    private static void assertMovedOut(Structs c) {
        assertEquals(MemorySegment.NULL, c.array().get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE),
                "producer's ArrowDeviceArray is marked released after the move");
        assertEquals(MemorySegment.NULL, c.schema().get(ADDRESS, ArrowSchemaLayout.RELEASE),
                "producer's ArrowSchema is marked released after the move");
    }

    static List<Object> values(Object... values) {
        return Arrays.asList(values);
    }

    static ByteBuffer bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return ByteBuffer.wrap(out);
    }

    static Map<String, Object> row(Object... keysAndValues) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            row.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return row;
    }

    /** The values of {@code depth} nested one-element lists around {@code leaf}. */
    static List<Object> nested(int depth, List<Object> leaf) {
        List<Object> values = leaf;
        for (int i = 0; i < depth; i++) {
            values = values((Object) values);
        }
        return values;
    }
}
