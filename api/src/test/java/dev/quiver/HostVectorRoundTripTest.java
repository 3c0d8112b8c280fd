package dev.quiver;

import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every foundation type built on the host, exported, imported back, and read: values and slices. */
class HostVectorRoundTripTest {
    private static final Devices NONE = Devices.cpuOnly();

    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of("null", HostVector.nulls("n", 5)),
                Arguments.of("bool", HostVector.bool("b", true, false, null, true, true, false, null, true, false)),
                Arguments.of("int8", HostVector.integers("i8", 8, true, -128L, 127L, null, 0L)),
                Arguments.of("uint8", HostVector.integers("u8", 8, false, 255L, 0L, null)),
                Arguments.of("int16", HostVector.integers("i16", 16, true, -32768L, 32767L, null)),
                Arguments.of("uint16", HostVector.integers("u16", 16, false, 65535L, null, 1L)),
                Arguments.of("int32", HostVector.int32("i32", Integer.MIN_VALUE, null, Integer.MAX_VALUE)),
                Arguments.of("uint32", HostVector.integers("u32", 32, false, 4294967295L, null, 7L)),
                Arguments.of("int64", HostVector.int64("i64", Long.MIN_VALUE, null, Long.MAX_VALUE)),
                Arguments.of("uint64", HostVector.integers("u64", 64, false, -1L, null, 3L)),
                Arguments.of("float16", HostVector.floats("f16", 16, 1.5, null, -0.25, 65504.0)),
                Arguments.of("float32", HostVector.floats("f32", 32, 1.5, null, -3.25)),
                Arguments.of("float64", HostVector.float64("f64", Math.PI, null, -0.0, Double.NaN)),
                Arguments.of("utf8", HostVector.utf8("s", "héllo", null, "", "wörld")),
                Arguments.of("binary", HostVector.binary("z", new byte[] {1, 2}, null, new byte[0], new byte[] {(byte) 255})),
                Arguments.of("list", HostVector.list("l", HostVector.int32("e", 1, 2, null, 4, 5), 2, null, 3, 0)),
                Arguments.of("struct", HostVector.struct("st", new boolean[] {true, false, true},
                        HostVector.int32("x", 1, 2, 3), HostVector.utf8("y", "a", "b", null))),
                Arguments.of("list<struct<list<utf8>>>", HostVector.list("deep", HostVector.struct("item",
                        HostVector.list("words", HostVector.utf8("w", "a", "b", "c", null), 1, 0, 3)), 2, 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void roundTripsThroughTheCStructs(String name, HostVector vector) {
        assertRoundTrip(vector);
    }

    @ParameterizedTest(name = "{0} sliced")
    @MethodSource("vectors")
    void roundTripsSliced(String name, HostVector vector) {
        if (vector.length() >= 2) {
            assertRoundTrip(vector.slice(1, vector.length() - 1));
        }
        assertRoundTrip(vector.slice(0, 0));
    }

    @Test
    void readsTheJavaMapping() {
        HostVector v = HostVector.struct("t", HostVector.binary("b", new byte[] {9}),
                HostVector.list("l", HostVector.float64("d", 0.5), 1));
        try (DeviceArray array = v.toDeviceArray(NONE)) {
            assertEquals(List.of(Map.of("b", ByteBuffer.wrap(new byte[] {9}), "l", List.of(0.5))), ArrayReader.of(array).values());
            assertEquals(new ArrowType.Struct(), array.field().type());
        }
    }

    private static void assertRoundTrip(HostVector vector) {
        long exports = Diagnostics.liveExports();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(vector.toDeviceArray(NONE), array, schema);
            try (DeviceArray imported = Interchange.importDevice(array, schema, ImportOptions.on(NONE))) {
                assertEquals(vector.field(), imported.field());
                assertEquals(vector.length(), imported.length());
                assertEquals(vector.nullCount(), imported.nullCount());
                assertEquals(vector.values(), ArrayReader.of(imported).values());
                try (DeviceArray copy = Copies.toHost(imported)) {
                    assertEquals(vector.values(), ArrayReader.of(copy).values());
                }
            }
        }
        assertEquals(exports, Diagnostics.liveExports(), "everything exported was released");
    }
}
