package dev.quiver.host;

import dev.quiver.DeviceArray;
import dev.quiver.type.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every fixed-width builder: built from primitive arrays, exported, read by C at logical indexes (whole and
 * sliced) and compared with the input, byte for byte, validity included; and equal to what the boxed
 * builders make.
 */
class FixedWidthVectorsTest {
    private static final int N = 1000;
    private static final Random RANDOM = new Random(20261123);
    private static final boolean[] VALID = randomValidity(N);

    /**
     * One builder's output and what it must hold.
     *
     * @param vector    the vector built
     * @param format    its format string
     * @param byteWidth bytes per value (0: bit-packed booleans, one byte each in {@code storage})
     * @param storage   the values' little-endian storage, computed here independently of the builders
     */
    record Case(HostVector vector, String format, int byteWidth, byte[] storage) {
        @Override
        public String toString() {
            return format;
        }
    }

    static Stream<Arguments> cases() {
        Validity validity = Validity.of(VALID);
        long[] longs = RANDOM.longs(N).toArray();
        longs[0] = Long.MIN_VALUE;
        longs[1] = Long.MAX_VALUE;
        int[] ints = RANDOM.ints(N).toArray();
        short[] shorts = new short[N];
        byte[] bytes = new byte[N];
        double[] doubles = RANDOM.doubles(N).map(d -> d * 1e6 - 5e5).toArray();
        doubles[2] = Double.NaN;
        float[] floats = new float[N];
        boolean[] booleans = new boolean[N];
        for (int i = 0; i < N; i++) {
            shorts[i] = (short) ints[i];
            bytes[i] = (byte) longs[i];
            floats[i] = (float) doubles[i];
            booleans[i] = (ints[i] & 1) != 0;
        }
        byte[] booleanBytes = new byte[N];
        for (int i = 0; i < N; i++) {
            booleanBytes[i] = (byte) (booleans[i] ? 1 : 0);
        }
        long[] pairs = RANDOM.longs(2L * N).toArray();
        long[] quads = RANDOM.longs(4L * N).toArray();
        byte[] fixed = new byte[5 * N];
        RANDOM.nextBytes(fixed);
        int[] dayTime = RANDOM.ints(2 * N).toArray();
        ByteBuffer monthDayNano = le(16 * N);
        int[] months = new int[N];
        int[] days = new int[N];
        long[] nanos = new long[N];
        for (int i = 0; i < N; i++) {
            months[i] = ints[i];
            days[i] = ~ints[i];
            nanos[i] = longs[i];
            monthDayNano.putInt(months[i]).putInt(days[i]).putLong(nanos[i]);
        }
        return Stream.of(
                new Case(FixedWidthVectors.bool("b", booleans, validity), "b", 0, booleanBytes),
                new Case(FixedWidthVectors.int8("i8", bytes, validity), "c", 1, bytes),
                new Case(FixedWidthVectors.uint8("u8", bytes, validity), "C", 1, bytes),
                new Case(FixedWidthVectors.int16("i16", shorts, validity), "s", 2, store(shorts)),
                new Case(FixedWidthVectors.uint16("u16", shorts, validity), "S", 2, store(shorts)),
                new Case(FixedWidthVectors.int32("i32", ints, validity), "i", 4, store(ints)),
                new Case(FixedWidthVectors.uint32("u32", ints, validity), "I", 4, store(ints)),
                new Case(FixedWidthVectors.int64("i64", longs, validity), "l", 8, store(longs)),
                new Case(FixedWidthVectors.uint64("u64", longs, validity), "L", 8, store(longs)),
                new Case(FixedWidthVectors.float16("f16", shorts, validity), "e", 2, store(shorts)),
                new Case(FixedWidthVectors.float32("f32", floats, validity), "f", 4, store(floats)),
                new Case(FixedWidthVectors.float64("f64", doubles, validity), "g", 8, store(doubles)),
                new Case(FixedWidthVectors.date32("d32", ints, validity), "tdD", 4, store(ints)),
                new Case(FixedWidthVectors.date64("d64", longs, validity), "tdm", 8, store(longs)),
                new Case(FixedWidthVectors.time32("t32", TimeUnit.MILLISECOND, ints, validity), "ttm", 4, store(ints)),
                new Case(FixedWidthVectors.time64("t64", TimeUnit.NANOSECOND, longs, validity), "ttn", 8, store(longs)),
                new Case(FixedWidthVectors.timestamp("ts", TimeUnit.MICROSECOND, "UTC", longs, validity), "tsu:UTC", 8, store(longs)),
                new Case(FixedWidthVectors.duration("dur", TimeUnit.SECOND, longs, validity), "tDs", 8, store(longs)),
                new Case(FixedWidthVectors.intervalYearMonth("ym", ints, validity), "tiM", 4, store(ints)),
                new Case(FixedWidthVectors.intervalDayTime("dt", dayTime, validity), "tiD", 8, store(dayTime)),
                new Case(FixedWidthVectors.intervalMonthDayNano("mdn", months, days, nanos, validity), "tin", 16, monthDayNano.array()),
                new Case(FixedWidthVectors.decimal32("dec32", 9, 2, ints, validity), "d:9,2,32", 4, store(ints)),
                new Case(FixedWidthVectors.decimal64("dec64", 18, 3, longs, validity), "d:18,3,64", 8, store(longs)),
                new Case(FixedWidthVectors.decimal128("dec128", 38, 4, pairs, validity), "d:38,4", 16, store(pairs)),
                new Case(FixedWidthVectors.decimal256("dec256", 76, 5, quads, validity), "d:76,5,256", 32, store(quads)),
                new Case(FixedWidthVectors.fixedSizeBinary("w5", 5, fixed, validity), "w:5", 5, fixed)
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void roundTripsThroughC(Case c) {
        assertEquals(N, c.vector().length());
        assertEquals(nulls(VALID, 0, N), c.vector().nullCount());
        CValues.Fixed read = CValues.fixed(c.vector(), -1, c.format(), c.byteWidth());
        assertArrayEquals(c.storage(), read.values());
        assertArrayEquals(VALID, read.valid());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void slicesRoundTripThroughC(Case c) {
        int from = 13;
        int count = N - 40;
        HostVector slice = c.vector().slice(from, count);
        assertEquals(nulls(VALID, from, count), slice.nullCount());
        CValues.Fixed read = CValues.fixed(slice, -1, c.format(), c.byteWidth());
        int width = Math.max(c.byteWidth(), 1);
        assertArrayEquals(Arrays.copyOfRange(c.storage(), from * width, (from + count) * width), read.values());
        assertArrayEquals(Arrays.copyOfRange(VALID, from, from + count), read.valid());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void membersOfASlicedStructRoundTripThroughC(Case c) {
        HostVector struct = HostVector.struct("s", c.vector(), FixedWidthVectors.int32("pad", new int[N], Validity.allValid()));
        int from = 7;
        int count = 100;
        CValues.Fixed read = CValues.fixed(struct.slice(from, count), 0, c.format(), c.byteWidth());
        int width = Math.max(c.byteWidth(), 1);
        assertArrayEquals(Arrays.copyOfRange(c.storage(), from * width, (from + count) * width), read.values());
        assertArrayEquals(Arrays.copyOfRange(VALID, from, from + count), read.valid());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readsBackTheValuesItHolds(Case c) {
        try (DeviceArray array = c.vector().toDeviceArray(CValues.NONE)) {
            assertEquals(c.vector().values(), ArrayReader.of(array).values());
            assertEquals(c.vector().field(), array.field());
            assertEquals(c.vector().nullCount(), array.nullCount());
        }
    }

    static Stream<Arguments> validityForms() {
        boolean[] valid = randomValidity(70);
        byte[] bitmap = new byte[10];
        long[] words = new long[2];
        for (int i = 0; i < valid.length; i++) {
            if (valid[i]) {
                bitmap[(i + 3) >>> 3] |= (byte) (1 << ((i + 3) & 7));
                words[(i + 5) >>> 6] |= 1L << ((i + 5) & 63);
            }
        }
        return Stream.of(
                Arguments.of("boolean[]", valid, Validity.of(valid)),
                Arguments.of("byte[] bitmap from bit 3", valid, Validity.bitmap(bitmap, 3)),
                Arguments.of("long[] words from bit 5", valid, Validity.bitmap(words, 5)),
                Arguments.of("byte[] bitmap from bit 0", new boolean[] {true, false, true, true, false, false, true, true, true},
                        Validity.bitmap(new byte[] {(byte) 0b1100_1101, 1}, 0)),
                Arguments.of("all valid", fill(70, true), Validity.allValid()),
                Arguments.of("all null", fill(70, false), Validity.of(fill(70, false))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validityForms")
    void takesValidityInEveryForm(String form, boolean[] valid, Validity validity) {
        long[] values = RANDOM.longs(valid.length).toArray();
        HostVector vector = FixedWidthVectors.int64("v", values, validity);
        assertEquals(nulls(valid, 0, valid.length), vector.nullCount());
        CValues.Fixed read = CValues.fixed(vector, -1, "l", 8);
        assertArrayEquals(valid, read.valid());
        assertArrayEquals(values, read.longs());
    }

    @Test
    void makesWhatTheBoxedBuildersMake() {
        boolean[] valid = {true, false, true, true};
        assertEquals(HostVector.int64("x", 1L, null, Long.MIN_VALUE, 4L).values(),
                FixedWidthVectors.int64("x", new long[] {1, 99, Long.MIN_VALUE, 4}, Validity.of(valid)).values());
        assertEquals(HostVector.integers("u", 8, false, 255L, null, 0L, 7L).values(),
                FixedWidthVectors.uint8("u", new byte[] {-1, 3, 0, 7}, Validity.of(valid)).values());
        assertEquals(HostVector.int32("i", 1, null, 3, 4).field(), FixedWidthVectors.int32("i", new int[4], Validity.of(valid)).field());
        assertEquals(HostVector.floats("h", 16, 1.5, null, -0.25, 65504.0).values(), FixedWidthVectors.float16("h",
                new short[] {Float.floatToFloat16(1.5f), 0, Float.floatToFloat16(-0.25f), Float.floatToFloat16(65504f)}, Validity.of(valid)).values());
        assertEquals(HostVector.bool("b", true, null, false, true).values(),
                FixedWidthVectors.bool("b", new boolean[] {true, true, false, true}, Validity.of(valid)).values());
        assertEquals(Arrays.asList(new BigDecimal("-1.23"), null), FixedWidthVectors.decimal128("d", 10, 2,
                new long[] {-123, -1, 5, 0}, Validity.of(new boolean[] {true, false})).values());
    }

    @Test
    void wrapsTheValuesWhileDeviceArraysHoldCopies() {
        long[] values = {1, 2, 3};
        boolean[] valid = {true, true, false};
        HostVector vector = FixedWidthVectors.int64("w", values, Validity.of(valid));
        try (DeviceArray before = vector.toDeviceArray(CValues.NONE)) {
            values[0] = 100;
            valid[1] = false;
            assertEquals(Arrays.asList(100L, 2L, null), vector.values(), "the vector reads the array it wraps; validity was copied");
            assertEquals(Arrays.asList(1L, 2L, null), ArrayReader.of(before).values(), "the device array holds a copy");
        }
        assertArrayEquals(new long[] {100, 2, 3}, CValues.fixed(vector, -1, "l", 8).longs());
    }

    @Test
    void eachBufferIsPaddedWithZerosTo64Bytes() {
        // three int32 values fill 12 bytes of the data buffer; the rest of its 64 bytes reads as zeros
        try (DeviceArray array = FixedWidthVectors.int32("x", new int[] {-1, -1, -1}, Validity.allValid()).toDeviceArray()) {
            java.lang.foreign.MemorySegment data = array.buffer(1).pointer().reinterpret(64);
            assertEquals(0, data.address() % 64, "64-byte aligned");
            for (long i = 0; i < 12; i++) {
                assertEquals((byte) -1, data.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i));
            }
            for (long i = 12; i < 64; i++) {
                assertEquals((byte) 0, data.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i), "padding byte " + i);
            }
        }
    }

    private static boolean[] randomValidity(int n) {
        boolean[] valid = new boolean[n];
        for (int i = 0; i < n; i++) {
            valid[i] = RANDOM.nextInt(5) != 0;
        }
        return valid;
    }

    private static boolean[] fill(int n, boolean value) {
        boolean[] out = new boolean[n];
        Arrays.fill(out, value);
        return out;
    }

    private static long nulls(boolean[] valid, int from, int count) {
        long n = 0;
        for (int i = from; i < from + count; i++) {
            n += valid[i] ? 0 : 1;
        }
        return n;
    }

    private static ByteBuffer le(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] store(long[] v) {
        return fill(le(v.length * 8), b -> b.asLongBuffer().put(v));
    }

    private static byte[] store(int[] v) {
        return fill(le(v.length * 4), b -> b.asIntBuffer().put(v));
    }

    private static byte[] store(short[] v) {
        return fill(le(v.length * 2), b -> b.asShortBuffer().put(v));
    }

    private static byte[] store(double[] v) {
        return fill(le(v.length * 8), b -> b.asDoubleBuffer().put(v));
    }

    private static byte[] store(float[] v) {
        return fill(le(v.length * 4), b -> b.asFloatBuffer().put(v));
    }

    private static byte[] fill(ByteBuffer buffer, Function<ByteBuffer, Object> put) {
        put.apply(buffer);
        return buffer.array();
    }
}
