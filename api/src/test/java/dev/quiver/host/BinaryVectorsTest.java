package dev.quiver.host;

import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * utf8, binary and their large variants built from one data array and offsets: exported, read by C at
 * logical indexes (whole, sliced, as a member of a sliced struct) and compared with the input; read back
 * with {@link ArrayReader#getBytes} and {@link ArrayReader#getString}.
 */
class BinaryVectorsTest {
    private static final int N = 500;
    private static final Random RANDOM = new Random(7);
    private static final String[] WORDS = {"", "a", "héllo", "wörld", "日本語", "🦊 fox", "plain ascii text of some length"};

    /**
     * Input of one build.
     *
     * @param data    the bytes
     * @param offsets their offsets
     * @param valid   validity
     */
    record Input(byte[] data, long[] offsets, boolean[] valid) {
        int[] intOffsets() {
            int[] out = new int[offsets.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = (int) offsets[i];
            }
            return out;
        }

        List<byte[]> expected() {
            return CValues.split(data, offsets, valid);
        }
    }

    private static final Input INPUT = input();

    private static Input input() {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        long[] offsets = new long[N + 1];
        boolean[] valid = new boolean[N];
        for (int i = 0; i < N; i++) {
            data.writeBytes(WORDS[RANDOM.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8));
            offsets[i + 1] = data.size();
            valid[i] = RANDOM.nextInt(4) != 0;
        }
        return new Input(data.toByteArray(), offsets, valid);
    }

    static Stream<Arguments> vectors() {
        Validity validity = Validity.of(INPUT.valid());
        return Stream.of(
                Arguments.of("u", 4, BinaryVectors.utf8("s", INPUT.data(), INPUT.intOffsets(), validity)),
                Arguments.of("z", 4, BinaryVectors.binary("z", INPUT.data(), INPUT.intOffsets(), validity)),
                Arguments.of("U", 8, BinaryVectors.largeUtf8("S", INPUT.data(), INPUT.offsets(), validity)),
                Arguments.of("Z", 8, BinaryVectors.largeBinary("Z", INPUT.data(), INPUT.offsets(), validity)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void roundTripsThroughC(String format, int offsetWidth, HostVector vector) {
        assertValues(INPUT.expected(), CValues.binary(vector, -1, format, offsetWidth, INPUT.data().length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void slicesRoundTripThroughC(String format, int offsetWidth, HostVector vector) {
        List<byte[]> read = CValues.binary(vector.slice(11, 300), -1, format, offsetWidth, INPUT.data().length);
        assertValues(INPUT.expected().subList(11, 311), read);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void membersOfASlicedStructRoundTripThroughC(String format, int offsetWidth, HostVector vector) {
        HostVector struct = HostVector.struct("t", FixedWidthVectors.int8("k", new byte[N], Validity.allValid()), vector);
        List<byte[]> read = CValues.binary(struct.slice(42, 17), 1, format, offsetWidth, INPUT.data().length);
        assertValues(INPUT.expected().subList(42, 59), read);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void readsBackWithGetBytesAtLogicalIndexes(String format, int offsetWidth, HostVector vector) {
        List<byte[]> expected = INPUT.expected();
        try (DeviceArray array = vector.slice(5, 200).toDeviceArray(CValues.NONE)) {
            ArrayReader reader = ArrayReader.of(array);
            for (int i = 0; i < 200; i++) {
                byte[] value = expected.get(5 + i);
                assertEquals(value == null, reader.isNull(i));
                if (value != null) {
                    assertArrayEquals(value, reader.getBytes(i));
                    if (format.equalsIgnoreCase("u")) {
                        assertEquals(new String(value, StandardCharsets.UTF_8), reader.getString(i));
                    }
                }
            }
        }
    }

    @Test
    void offsetsNeedNotStartAtZero() {
        byte[] data = "xxabcde".getBytes(StandardCharsets.US_ASCII);
        HostVector v = BinaryVectors.utf8("s", data, new int[] {2, 4, 4, 7}, Validity.allValid());
        assertEquals(List.of("ab", "", "cde"), v.values());
        assertValues(List.of("ab".getBytes(StandardCharsets.US_ASCII), new byte[0], "cde".getBytes(StandardCharsets.US_ASCII)),
                CValues.binary(v, -1, "u", 4, data.length));
    }

    @Test
    void keepsCopiesOfDataAndOffsets() {
        byte[] data = "abcd".getBytes(StandardCharsets.US_ASCII);
        int[] offsets = {0, 1, 4};
        HostVector v = BinaryVectors.utf8("s", data, offsets, Validity.allValid());
        data[0] = 'z';
        offsets[2] = 1_000;
        assertEquals(List.of("a", "bcd"), v.values());
    }

    @Test
    void makesWhatTheBoxedBuildersMake() {
        byte[] data = "héllowörld".getBytes(StandardCharsets.UTF_8);
        HostVector built = BinaryVectors.utf8("s", data, new int[] {0, 6, 6, 12}, Validity.of(new boolean[] {true, false, true}));
        HostVector boxed = HostVector.utf8("s", "héllo", null, "wörld");
        assertEquals(boxed.field(), built.field());
        assertEquals(boxed.values(), built.values());
        assertEquals(boxed.nullCount(), built.nullCount());
        assertNull(built.values().get(1));
    }

    private static void assertValues(List<byte[]> expected, List<byte[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "value " + i);
        }
    }
}
