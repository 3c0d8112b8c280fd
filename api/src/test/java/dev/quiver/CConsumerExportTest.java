package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Function;
import java.util.stream.Stream;

import static dev.quiver.host.HostVector.binary;
import static dev.quiver.host.HostVector.bool;
import static dev.quiver.host.HostVector.float64;
import static dev.quiver.host.HostVector.floats;
import static dev.quiver.host.HostVector.int32;
import static dev.quiver.host.HostVector.int64;
import static dev.quiver.host.HostVector.integers;
import static dev.quiver.host.HostVector.list;
import static dev.quiver.host.HostVector.nulls;
import static dev.quiver.host.HostVector.struct;
import static dev.quiver.host.HostVector.utf8;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Java exports (HostVector -> DeviceArray -> Interchange.exportDevice), a C consumer written from the spec checks the
 * structs, reads every value into checksums and releases; Java's export bookkeeping must return to where
 * it was, with no failure inside a release callback.
 */
class CConsumerExportTest {

    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of("int32 with nulls", int32("i32", 1, null, -3, Integer.MAX_VALUE)),
                Arguments.of("int64", int64("i64", Long.MIN_VALUE, 0L, Long.MAX_VALUE, null)),
                Arguments.of("uint8", integers("u8", 8, false, 0L, 255L, 128L, null)),
                Arguments.of("int16", integers("i16", 16, true, -32768L, 32767L, -1L)),
                Arguments.of("uint32", integers("u32", 32, false, 4294967295L, 1L)),
                Arguments.of("uint64", integers("u64", 64, false, -1L, 5L)),
                Arguments.of("float16", floats("f16", 16, 1.5, -2.0, null, 65504.0, 0.0001)),
                Arguments.of("float32", floats("f32", 32, 0.1, -7.25, null)),
                Arguments.of("float64", float64("f64", Math.PI, -0.0, null, 1e-300)),
                Arguments.of("bool", bool("flags", true, false, null, true, true, false, true, true, true)),
                Arguments.of("utf8", utf8("s", "h\u00e9llo", null, "", "\u65e5\u672c", "x")),
                Arguments.of("binary", binary("b", new byte[] {0, (byte) 0xff}, null, new byte[0], new byte[] {7})),
                Arguments.of("null type", nulls("n", 4)),
                Arguments.of("list<int64> with a null list", list("l", int64("item", 1L, 2L, 3L, null, 5L), 2, null, 0, 3)),
                Arguments.of("struct{int32, utf8} with a null struct", struct("st", new boolean[] {true, false, true},
                        int32("a", 1, 2, null), utf8("b", "x", "y", null))),
                Arguments.of("list<struct{int64, list<utf8>}>", list("rows", struct("row",
                        int64("id", 10L, 20L, 30L),
                        list("tags", utf8("tag", "a", "bb", null, "dddd"), 2, null, 2)), 1, 2, null)),
                Arguments.of("struct{list<float64>, bool}", struct("st",
                        list("xs", float64("x", 0.5, null, 2.25), 1, 0, 2), bool("ok", true, null, false))),
                Arguments.of("sliced int32", int32("i32", 10, 11, null, 13, 14, 15).slice(2, 3)),
                Arguments.of("sliced utf8", utf8("s", "a", "bb", null, "dddd", "e").slice(1, 3)),
                Arguments.of("sliced list", list("l", int64("item", 1L, 2L, 3L, 4L, 5L), 1, 2, null, 2).slice(1, 2)),
                Arguments.of("sliced struct", struct("st", int32("a", 1, 2, 3, 4), utf8("b", "w", "x", "y", "z")).slice(1, 2)),
                Arguments.of("list over sliced elements", list("l", int64("item", 9L, 1L, 2L, 3L, 4L).slice(1, 4), 2, 2)),
                Arguments.of("empty int32", int32("e")),
                Arguments.of("empty utf8", utf8("e")),
                Arguments.of("empty list", list("e", int64("item"))));
    }

    /** Where the consumer's structs live. */
    enum Memory { C_HEAP, JAVA_ARENA }

    static Stream<Arguments> vectorsAndMemory() {
        return vectors().flatMap(v -> Stream.of(Memory.values()).map(m -> Arguments.of(v.get()[0], v.get()[1], m)));
    }

    @ParameterizedTest(name = "{0} into {2} structs")
    @MethodSource("vectorsAndMemory")
    void consumerChecksReadsAndReleases(String name, HostVector vector, Memory memory) {
        long liveBefore = Diagnostics.liveExports();
        long failuresBefore = Diagnostics.callbackFailures();
        withStructs(memory, (structs) -> {
            MemorySegment outArray = structs[0];
            MemorySegment outSchema = structs[1];
            DeviceArray array = vector.toDeviceArray(CProducer.NO_BACKENDS);
            assertEquals(2 * nodes(vector.field()), Diagnostics.liveExports() - liveBefore, "exported array and schema nodes");
            Interchange.exportDevice(array, outArray, outSchema);
            assertTrue(array.isClosed(), "exported array is moved out");

            CConsumer.Result read = CConsumer.check(outArray, outSchema, DeviceType.CPU.code());
            assertEquals(CConsumer.describe(vector.field()), read.description());
            assertEquals(CConsumer.Sums.of(vector.values()), read.sums());
            assertEquals(vector.length(), outArray.get(JAVA_LONG, ArrowArrayLayout.LENGTH));

            assertEquals(0, CConsumer.release(outArray, outSchema), "consumer released both; release is NULL now");
            return null;
        });
        assertEquals(liveBefore, Diagnostics.liveExports(), "every exported node released");
        assertEquals(failuresBefore, Diagnostics.callbackFailures(), "no failure inside our release callbacks");
    }

    @Test
    void releaseOnANativeThread() {
        long liveBefore = Diagnostics.liveExports();
        long failuresBefore = Diagnostics.callbackFailures();
        HostVector vector = struct("st", int32("a", 1, null, 3), list("l", utf8("s", "x", "yy"), 1, 1, 0));
        withStructs(Memory.C_HEAP, structs -> {
            Interchange.exportDevice(vector.toDeviceArray(CProducer.NO_BACKENDS), structs[0], structs[1]);
            assertEquals(CConsumer.Sums.of(vector.values()), CConsumer.check(structs[0], structs[1], DeviceType.CPU.code()).sums());
            assertEquals(0, CConsumer.releaseOnNativeThread(structs[0], structs[1]));
            return null;
        });
        assertEquals(liveBefore, Diagnostics.liveExports());
        assertEquals(failuresBefore, Diagnostics.callbackFailures());
    }

    @Test
    void childMovedOutOutlivesItsParent() {
        long liveBefore = Diagnostics.liveExports();
        long failuresBefore = Diagnostics.callbackFailures();
        HostVector member = list("l", int64("item", 4L, 5L, 6L), 2, 1);
        HostVector vector = struct("st", member, utf8("s", "p", "q"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment child = arena.allocate(ArrowArrayLayout.LAYOUT);
            MemorySegment childSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            withStructs(Memory.C_HEAP, structs -> {
                Interchange.exportDevice(vector.toDeviceArray(CProducer.NO_BACKENDS), structs[0], structs[1]);
                assertEquals(0, CConsumer.takeChild(structs[0], structs[1], 0, child, childSchema));
                assertEquals(0, CConsumer.release(structs[0], structs[1]));
                return null;
            });
            assertEquals(2 * nodes(member.field()), Diagnostics.liveExports() - liveBefore, "the moved-out child's nodes are still live");
            CConsumer.Result read = CConsumer.checkArray(child, childSchema);
            assertEquals(CConsumer.describe(member.field()), read.description());
            assertEquals(CConsumer.Sums.of(member.values()), read.sums(), "the child's buffers are still there");
            assertEquals(0, CConsumer.releaseArray(child, childSchema));
        }
        assertEquals(liveBefore, Diagnostics.liveExports());
        assertEquals(failuresBefore, Diagnostics.callbackFailures());
    }

    @Test
    void exportWithoutSchemaReleasesTheSchemaInJava() {
        long liveBefore = Diagnostics.liveExports();
        long failuresBefore = Diagnostics.callbackFailures();
        HostVector vector = list("l", int32("item", 1, 2, 3), 3);
        withStructs(Memory.JAVA_ARENA, structs -> {
            Interchange.exportDevice(vector.toDeviceArray(CProducer.NO_BACKENDS), structs[0], MemorySegment.NULL);
            assertEquals(nodes(vector.field()), Diagnostics.liveExports() - liveBefore, "only the array nodes are live");
            assertEquals(0, CConsumer.releaseArray(structs[0].asSlice(ArrowDeviceArrayLayout.ARRAY), MemorySegment.NULL));
            return null;
        });
        assertEquals(liveBefore, Diagnostics.liveExports());
        assertEquals(failuresBefore, Diagnostics.callbackFailures());
    }

    /** Runs {@code body} with an ArrowDeviceArray and an ArrowSchema in {@code memory}, pre-filled with 0xA5. */
    private static void withStructs(Memory memory, Function<MemorySegment[], Void> body) {
        long arraySize = ArrowDeviceArrayLayout.LAYOUT.byteSize();
        long schemaSize = ArrowSchemaLayout.LAYOUT.byteSize();
        if (memory == Memory.C_HEAP) {
            MemorySegment array = CConsumer.alloc(arraySize);
            MemorySegment schema = CConsumer.alloc(schemaSize);
            try {
                body.apply(new MemorySegment[] {array, schema});
            } finally {
                CConsumer.free(array);
                CConsumer.free(schema);
            }
        } else {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT).fill((byte) 0xA5);
                MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT).fill((byte) 0xA5);
                body.apply(new MemorySegment[] {array, schema});
            }
        }
    }

    private static long nodes(Field field) {
        return 1 + field.children().stream().mapToLong(CConsumerExportTest::nodes).sum();
    }
}
