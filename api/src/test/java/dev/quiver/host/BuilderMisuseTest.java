package dev.quiver.host;

import dev.quiver.type.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to the unboxed builders fails with a message that says what was wrong. */
class BuilderMisuseTest {
    private static final byte[] DATA = "abcdef".getBytes(StandardCharsets.US_ASCII);

    @Test
    void offsetsMustAscendWithinTheData() {
        rejects("offsets are not monotonic: offsets[2] = 1 is below offsets[1] = 3",
                () -> BinaryVectors.utf8("s", DATA, new int[] {0, 3, 1, 6}, Validity.allValid()));
        rejects("offsets[2] = 7 is past the end of the 6 bytes of data",
                () -> BinaryVectors.binary("s", DATA, new int[] {0, 3, 7}, Validity.allValid()));
        rejects("offsets[0] = -1 is negative",
                () -> BinaryVectors.largeUtf8("s", DATA, new long[] {-1, 3}, Validity.allValid()));
        rejects("offsets must hold at least one entry",
                () -> BinaryVectors.largeBinary("s", DATA, new long[0], Validity.allValid()));
        assertEquals(0, BinaryVectors.utf8("s", DATA, new int[] {4}, Validity.allValid()).length());
    }

    @Test
    void utf8MustBeWellFormed() {
        byte[] bad = {'o', 'k', (byte) 0xC3, '(', 'x'};
        rejects("s: value 1 is not well-formed UTF-8 (byte 2 of the data)",
                () -> BinaryVectors.utf8("s", bad, new int[] {0, 2, 5}, Validity.allValid()));
        byte[] eAcute = "é".getBytes(StandardCharsets.UTF_8);
        rejects("s: value 1 starts inside a UTF-8 character (byte 1 of the data)",
                () -> BinaryVectors.utf8("s", eAcute, new int[] {0, 1, 2}, Validity.allValid()));
        rejects("not well-formed UTF-8", () -> BinaryVectors.largeUtf8("s", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new long[] {0, 3}, Validity.allValid()));
        rejects("not well-formed UTF-8", () -> BinaryVectors.utf8("s", new byte[] {(byte) 0xC0, (byte) 0x80}, new int[] {0, 2},
                Validity.allValid()));
        assertEquals(2, BinaryVectors.binary("b", eAcute, new int[] {0, 1, 2}, Validity.allValid()).length());
    }

    @Test
    void validityMustCoverEveryValue() {
        rejects("v: validity is too short: a boolean[2] describes 2 values, the array has 3",
                () -> FixedWidthVectors.int64("v", new long[3], Validity.of(new boolean[2])));
        rejects("v: validity is too short: a byte[1] bitmap from bit 6 describes 2 values, the array has 3",
                () -> FixedWidthVectors.int32("v", new int[3], Validity.bitmap(new byte[1], 6)));
        rejects("s: validity is too short: a long[1] bitmap from bit 0 describes 64 values, the array has 65",
                () -> BinaryVectors.utf8("s", new byte[0], new int[66], Validity.bitmap(new long[1], 0)));
        rejects("validity bit offset 9 is outside a byte[1] bitmap of 8 bits", () -> Validity.bitmap(new byte[1], 9));
        rejects("validity bit offset -1 is outside", () -> Validity.bitmap(new long[1], -1));
        assertThrows(NullPointerException.class, () -> FixedWidthVectors.int64("v", new long[1], null));
    }

    @Test
    void storageMustMakeWholeValuesOfTheType() {
        rejects("d: decimal128 takes 2 64-bit words per value; 3 is not a multiple of 2",
                () -> FixedWidthVectors.decimal128("d", 38, 0, new long[3], Validity.allValid()));
        rejects("decimal256 takes 4 64-bit words per value",
                () -> FixedWidthVectors.decimal256("d", 76, 0, new long[6], Validity.allValid()));
        rejects("w: fixed-size binary w:4 takes 4 bytes per value; 6 is not a multiple of 4",
                () -> FixedWidthVectors.fixedSizeBinary("w", 4, new byte[6], Validity.allValid()));
        rejects("fixed-size binary width must be at least 1, not 0",
                () -> FixedWidthVectors.fixedSizeBinary("w", 0, new byte[6], Validity.allValid()));
        rejects("day-time interval takes 2 ints (days, milliseconds) per value",
                () -> FixedWidthVectors.intervalDayTime("i", new int[3], Validity.allValid()));
        rejects("month-day-nano intervals need as many days and nanoseconds as months; got 2 months, 1 days, 2 nanoseconds",
                () -> FixedWidthVectors.intervalMonthDayNano("i", new int[2], new int[1], new long[2], Validity.allValid()));
        rejects("t: time32 holds seconds or milliseconds, not NANOSECOND; use time64",
                () -> FixedWidthVectors.time32("t", TimeUnit.NANOSECOND, new int[1], Validity.allValid()));
        rejects("t: time64 holds microseconds or nanoseconds, not SECOND; use time32",
                () -> FixedWidthVectors.time64("t", TimeUnit.SECOND, new long[1], Validity.allValid()));
        rejects("decimal128 precision must be 1..38, not 39",
                () -> FixedWidthVectors.decimal128("d", 39, 0, new long[2], Validity.allValid()));
    }

    private static void rejects(String message, Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().contains(message), "message was: " + e.getMessage());
    }
}
