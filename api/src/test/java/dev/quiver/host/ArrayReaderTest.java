package dev.quiver.host;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.testkit.CLibrary;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.TimeUnit;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unboxed and bulk getters, logical indexes of slices and struct members, and misuse. */
class ArrayReaderTest {
    private static final boolean[] VALID = {true, false, true, true, true, false, true, true, true, true};

    @Test
    void unboxedGettersReadEachWidthAtLogicalIndexes() {
        long[] longs = {Long.MIN_VALUE, 0, -1, 42, Long.MAX_VALUE, 9, 8, 7, 6, 5};
        int[] ints = {Integer.MIN_VALUE, 0, -1, 42, Integer.MAX_VALUE, 9, 8, 7, 6, 5};
        short[] shorts = {Short.MIN_VALUE, 0, -1, 42, Short.MAX_VALUE, 9, 8, 7, 6, 5};
        byte[] bytes = {Byte.MIN_VALUE, 0, -1, 42, Byte.MAX_VALUE, 9, 8, 7, 6, 5};
        double[] doubles = {-1.5, 0, Double.MAX_VALUE, 3.25, -0.0, 1, 2, 3, 4, 5};
        float[] floats = {-1.5f, 0, Float.MAX_VALUE, 3.25f, -0.0f, 1, 2, 3, 4, 5};
        boolean[] booleans = {true, true, false, true, false, false, true, false, true, true};
        Validity validity = Validity.of(VALID);
        int from = 2;
        read(FixedWidthVectors.int64("l", longs, validity), from, r -> {
            for (int i = 0; i < r.length(); i++) {
                if (VALID[from + i]) {
                    assertEquals(longs[from + i], r.getLong(i));
                }
            }
        });
        read(FixedWidthVectors.uint32("u", ints, validity), from, r -> {
            assertEquals(Integer.toUnsignedLong(-1), r.getLong(0));
            assertEquals(-1, r.getInt(0));
            assertEquals(Integer.MAX_VALUE, r.getInt(2));
        });
        read(FixedWidthVectors.int32("i", ints, validity), from, r -> {
            assertEquals(-1, r.getInt(0));
            assertEquals(-1L, r.getLong(0));
        });
        read(FixedWidthVectors.int16("s", shorts, validity), from, r -> {
            assertEquals((short) -1, r.getShort(0));
            assertEquals(Short.MAX_VALUE, r.getInt(2));
        });
        read(FixedWidthVectors.uint16("S", shorts, validity), from, r -> {
            assertEquals((short) -1, r.getShort(0));
            assertEquals(65535, r.getInt(0));
        });
        read(FixedWidthVectors.int8("b", bytes, validity), from, r -> {
            assertEquals((byte) -1, r.getByte(0));
            assertEquals(Byte.MAX_VALUE, r.getShort(2));
        });
        read(FixedWidthVectors.uint8("B", bytes, validity), from, r -> {
            assertEquals((byte) -1, r.getByte(0));
            assertEquals(255L, r.getLong(0));
        });
        read(FixedWidthVectors.float64("d", doubles, validity), from, r -> {
            assertEquals(Double.MAX_VALUE, r.getDouble(0));
            assertEquals(3.25, r.getDouble(1));
        });
        read(FixedWidthVectors.float32("f", floats, validity), from, r -> {
            assertEquals(Float.MAX_VALUE, r.getFloat(0));
            assertEquals(3.25, r.getDouble(1));
        });
        read(FixedWidthVectors.float16("h", new short[] {0, 0, Float.floatToFloat16(-2.5f), 0, 0, 0, 0, 0, 0, 0}, validity), from, r -> {
            assertEquals(-2.5f, r.getFloat(0));
            assertEquals(Float.floatToFloat16(-2.5f), r.getShort(0));
        });
        read(FixedWidthVectors.bool("t", booleans, validity), from, r -> {
            assertFalse(r.getBoolean(0));
            assertTrue(r.getBoolean(1));
            assertTrue(r.isNull(3));
        });
        read(FixedWidthVectors.timestamp("ts", TimeUnit.NANOSECOND, "", longs, validity), from, r -> assertEquals(42L, r.getLong(1)));
        read(FixedWidthVectors.date32("day", ints, validity), from, r -> assertEquals(42, r.getInt(1)));
        read(FixedWidthVectors.decimal64("dec", 18, 2, longs, validity), from, r -> assertEquals(new BigDecimal("0.42"), r.getDecimal(1)));
    }

    @Test
    void bulkGettersCopyTheStoredValuesOfASlice() {
        long[] longs = new long[100];
        int[] ints = new int[100];
        short[] shorts = new short[100];
        byte[] bytes = new byte[100];
        double[] doubles = new double[100];
        float[] floats = new float[100];
        boolean[] booleans = new boolean[100];
        boolean[] valid = new boolean[100];
        for (int i = 0; i < 100; i++) {
            longs[i] = i * 1_000_000_007L;
            ints[i] = i * 31;
            shorts[i] = (short) (i * 7);
            bytes[i] = (byte) i;
            doubles[i] = i / 4.0;
            floats[i] = i / 8f;
            booleans[i] = i % 3 == 0;
            valid[i] = i % 7 != 0;
        }
        Validity validity = Validity.of(valid);
        read(FixedWidthVectors.int64("l", longs, validity), 10, r -> {
            long[] out = new long[62];
            r.copyLongs(5, out, 2, 60);
            assertArrayEquals(Arrays.copyOfRange(longs, 15, 75), Arrays.copyOfRange(out, 2, 62));
            boolean[] flags = new boolean[60];
            r.copyValidity(5, flags, 0, 60);
            assertArrayEquals(Arrays.copyOfRange(valid, 15, 75), flags);
        });
        assertCopies(FixedWidthVectors.int32("i", ints, validity), ints, ArrayReader::copyInts);
        assertCopies(FixedWidthVectors.int16("s", shorts, validity), shorts, ArrayReader::copyShorts);
        assertCopies(FixedWidthVectors.uint8("b", bytes, validity), bytes, ArrayReader::copyBytes);
        assertCopies(FixedWidthVectors.float64("d", doubles, validity), doubles, ArrayReader::copyDoubles);
        assertCopies(FixedWidthVectors.float32("f", floats, validity), floats, ArrayReader::copyFloats);
        assertCopies(FixedWidthVectors.bool("t", booleans, validity), booleans, ArrayReader::copyBooleans);
    }

    /** One bulk getter of {@link ArrayReader}. */
    private interface BulkCopy<A> {
        void copy(ArrayReader reader, long from, A dst, int at, int count);
    }

    /** Copies elements 5..64 of {@code vector.slice(10, ...)} with {@code copy}; they must be {@code values[15..74]}. */
    private static <A> void assertCopies(HostVector vector, A values, BulkCopy<A> copy) {
        read(vector, 10, r -> {
            Object out = Array.newInstance(values.getClass().getComponentType(), 60);
            Object expected = Array.newInstance(values.getClass().getComponentType(), 60);
            System.arraycopy(values, 15, expected, 0, 60);
            @SuppressWarnings("unchecked")
            A dst = (A) out;
            copy.copy(r, 5, dst, 0, 60);
            assertArrayEquals(new Object[] {expected}, new Object[] {out});
        });
    }

    @Test
    void membersOfASlicedStructReadAtTheStructsIndexes() {
        long[] ids = {10, 11, 12, 13, 14, 15};
        HostVector struct = HostVector.struct("row", new boolean[] {true, true, false, true, true, true},
                FixedWidthVectors.int64("id", ids, Validity.of(new boolean[] {true, true, true, false, true, true})),
                HostVector.utf8("name", "a", "b", "c", "d", "e", "f"),
                HostVector.struct("inner", HostVector.float64("x", 0.0, 0.5, 1.0, 1.5, 2.0, 2.5)));
        try (DeviceArray array = struct.slice(2, 3).toDeviceArray(CValues.NONE)) {
            ArrayReader row = ArrayReader.of(array);
            ArrayReader id = row.child(0);
            ArrayReader name = row.child(1);
            ArrayReader x = row.child(2).child(0);
            assertEquals(3, id.length());
            assertTrue(row.isNull(0));
            assertEquals(12, id.getLong(0));
            assertTrue(id.isNull(1));
            assertEquals(14, id.getLong(2));
            assertEquals("c", name.getString(0));
            assertArrayEquals("e".getBytes(StandardCharsets.UTF_8), name.getBytes(2));
            assertEquals(1.0, x.getDouble(0));
            assertEquals(2.0, x.getDouble(2));
            long[] out = new long[3];
            id.copyLongs(0, out, 0, 3);
            assertArrayEquals(new long[] {12, 13, 14}, out);
            assertEquals(Arrays.asList(null, java.util.Map.of("id", 14L, "name", "e", "inner", java.util.Map.of("x", 2.0)).get("id")),
                    Arrays.asList(row.getObject(0), ((java.util.Map<?, ?>) row.getObject(2)).get("id")));
        }
    }

    @Test
    void readsMembersOfACProducedStructWhoseMembersHaveOffsetsOfTheirOwn() throws Throwable {
        CLibrary producer = CLibrary.fromResources(ArrayReaderTest.class, "sliced_struct.c");
        MethodHandle make = producer.function("sliced_struct_make", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
        MethodHandle releases = producer.function("sliced_struct_releases", FunctionDescriptor.of(JAVA_LONG));
        long before = (long) releases.invokeExact();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment deviceArray = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            make.invokeExact(deviceArray, schema);
            try (DeviceArray array = Interchange.importDevice(deviceArray, schema, ImportOptions.on(CValues.NONE))) {
                ArrayReader row = ArrayReader.of(array);
                ArrayReader id = row.child(0);
                ArrayReader name = row.child(1);
                assertEquals(4, id.length());
                assertEquals(11, id.getLong(0));
                assertTrue(id.isNull(1));
                assertEquals(13, id.getLong(2));
                assertEquals(14, id.getLong(3));
                assertEquals("e", name.getString(0));
                assertArrayEquals("h".getBytes(StandardCharsets.UTF_8), name.getBytes(3));
                assertTrue(row.isNull(2));
                assertFalse(row.isNull(3));
                long[] stored = new long[4];
                id.copyLongs(0, stored, 0, 4);
                assertArrayEquals(new long[] {11, 12, 13, 14}, stored);
                assertEquals(java.util.Map.of("id", 14L, "name", "h"), row.getObject(3));
                assertEquals(Arrays.asList(11L, null, 13L, 14L), id.values());
            }
        }
        assertEquals(before + 1, (long) releases.invokeExact(), "the producer's release ran once");
    }

    @Test
    void getBytesAndGetStringReadViewsAndFixedSizeBinary() {
        String longer = "a string longer than twelve bytes";
        HostVector views = HostVector.of(Field.of("v", new ArrowType.Utf8View(), true), Arrays.asList("short", null, longer));
        HostVector binaryViews = HostVector.of(Field.of("bv", new ArrowType.BinaryView(), true),
                Arrays.asList(ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(longer.getBytes(StandardCharsets.UTF_8))));
        read(views, 0, r -> {
            assertEquals("short", r.getString(0));
            assertArrayEquals(longer.getBytes(StandardCharsets.UTF_8), r.getBytes(2));
        });
        read(binaryViews, 1, r -> assertArrayEquals(longer.getBytes(StandardCharsets.UTF_8), r.getBytes(0)));
        read(FixedWidthVectors.fixedSizeBinary("w", 3, new byte[] {1, 2, 3, 4, 5, 6}, Validity.allValid()), 1,
                r -> assertArrayEquals(new byte[] {4, 5, 6}, r.getBytes(0)));
    }

    @Test
    void typedGettersReadThroughDictionariesAndRunEnds() {
        Field dictionary = Field.of("d", ArrowType.integer(16, true), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("values", ArrowType.utf8(), true), false));
        read(HostVector.of(dictionary, Arrays.asList("x", "y", null, "x")), 1, r -> {
            assertEquals("y", r.getString(0));
            assertTrue(r.isNull(1));
            assertArrayEquals("x".getBytes(StandardCharsets.UTF_8), r.getBytes(2));
            assertThrows(IllegalStateException.class, () -> r.getString(1));
        });
        Field runs = Field.of("r", new ArrowType.RunEndEncoded(), true, List.of(
                Field.of("run_ends", ArrowType.integer(32, true), false), Field.of("values", ArrowType.integer(64, true), true)));
        read(HostVector.of(runs, Arrays.asList(5L, 5L, 7L, 7L, 7L, 9L)), 1, r -> {
            assertEquals(5L, r.getLong(0));
            assertEquals(7L, r.getLong(3));
            assertEquals(9L, r.getLong(4));
        });
    }

    @Test
    void misuseFailsWithMessagesNamingTheArray() {
        read(BinaryVectors.utf8("names", new byte[] {'a'}, new int[] {0, 1, 1}, Validity.of(new boolean[] {true, false})), 0, r -> {
            IllegalStateException wrongType = assertThrows(IllegalStateException.class, () -> r.getLong(0));
            assertTrue(wrongType.getMessage().contains("names") && wrongType.getMessage().contains("getLong"), wrongType.getMessage());
            IllegalStateException isNull = assertThrows(IllegalStateException.class, () -> r.getString(1));
            assertTrue(isNull.getMessage().contains("names[1] is null"), isNull.getMessage());
            IndexOutOfBoundsException range = assertThrows(IndexOutOfBoundsException.class, () -> r.getString(2));
            assertTrue(range.getMessage().contains("index 2 is out of range for 2 elements"), range.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> r.isNull(-1));
            assertThrows(IllegalStateException.class, () -> r.copyInts(0, new int[2], 0, 2));
        });
        read(FixedWidthVectors.int64("ids", new long[4], Validity.allValid()), 1, r -> {
            assertThrows(IllegalStateException.class, () -> r.getInt(0));
            assertThrows(IllegalStateException.class, () -> r.getDouble(0));
            assertThrows(IllegalStateException.class, () -> r.getBytes(0));
            IndexOutOfBoundsException source = assertThrows(IndexOutOfBoundsException.class, () -> r.copyLongs(1, new long[8], 0, 3));
            assertTrue(source.getMessage().contains("copyLongs of 3 elements from 1 is out of range for 3 elements"), source.getMessage());
            IndexOutOfBoundsException target = assertThrows(IndexOutOfBoundsException.class, () -> r.copyLongs(0, new long[2], 1, 2));
            assertTrue(target.getMessage().contains("does not fit a destination of 2"), target.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> r.child(0));
        });
    }

    /** Turns {@code vector.slice(from, ...)} into a CPU array and hands a reader of it to {@code check}. */
    private static void read(HostVector vector, int from, Consumer<ArrayReader> check) {
        try (DeviceArray array = vector.slice(from, vector.length() - from).toDeviceArray(CValues.NONE)) {
            ArrayReader reader = ArrayReader.of(array);
            assertEquals(vector.length() - from, reader.length());
            check.accept(reader);
        }
    }

    @Test
    void aUnionRowIsNullWhenTheChildItSelectsIsNull() {
        for (ArrowType.UnionMode mode : ArrowType.UnionMode.values()) {
            Field union = Field.of("u", new ArrowType.Union(mode, List.of(0, 1)), false,
                    List.of(Field.of("i", new ArrowType.Int(32, true), true), Field.of("u", new ArrowType.Utf8(), true)));
            HostVector vector = HostVector.of(union, List.of(new UnionValue(0, 1), new UnionValue(1, null),
                    new UnionValue(0, null), new UnionValue(1, "x")));
            try (DeviceArray array = vector.toDeviceArray(Devices.cpuOnly())) {
                ArrayReader reader = ArrayReader.of(array);
                assertEquals(List.of(false, true, true, false),
                        java.util.stream.LongStream.range(0, 4).mapToObj(reader::isNull).toList(), mode.toString());
                assertEquals(new UnionValue(1, null), reader.getObject(1));
            }
        }
    }

    @Test
    void aRunEndEncodedRowIsNullWhenItsRunsValueIsNull() {
        Field ree = Field.of("r", new ArrowType.RunEndEncoded(), false, List.of(
                Field.of("run_ends", new ArrowType.Int(32, true), false), Field.of("values", new ArrowType.Int(64, true), true)));
        HostVector vector = HostVector.of(ree, java.util.Arrays.asList(7L, 7L, null, null, 8L));
        try (DeviceArray array = vector.toDeviceArray(Devices.cpuOnly())) {
            ArrayReader reader = ArrayReader.of(array);
            assertEquals(List.of(false, false, true, true, false),
                    java.util.stream.LongStream.range(0, 5).mapToObj(reader::isNull).toList());
        }
    }

    @Test
    void copyValidityAgreesWithIsNullAtEveryAlignment() {
        boolean[] valid = new boolean[80];
        for (int i = 0; i < valid.length; i++) {
            valid[i] = (i * 37 + i / 3) % 5 != 0;
        }
        long[] longs = new long[80];
        for (int slice = 0; slice < 9; slice++) {
            int s0 = slice;
            read(FixedWidthVectors.int64("l", longs, Validity.of(valid)), s0, r -> {
                for (int from = 0; from < 17; from++) {
                    for (int count = 0; count <= 40; count++) {
                        boolean[] flags = new boolean[count + 3];
                        r.copyValidity(from, flags, 3, count);
                        for (int j = 0; j < count; j++) {
                            assertEquals(!r.isNull(from + j), flags[3 + j], "slice " + s0 + " from " + from + " element " + j);
                        }
                    }
                }
            });
        }
        read(FixedWidthVectors.int64("l", longs, Validity.allValid()), 3, r -> {
            boolean[] flags = new boolean[20];
            r.copyValidity(2, flags, 0, 20);
            for (boolean flag : flags) {
                assertTrue(flag, "no bitmap: every element is valid");
            }
        });
    }
}
