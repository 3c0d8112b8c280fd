package dev.quiver.host;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Checks that every value of a utf8 array is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF): the bytes between the first and the last offset must be well-formed as a whole,
 * and no value may start inside a character. ASCII runs are skipped eight bytes at a time. Stateless.
 */
final class Utf8Check {
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    private Utf8Check() {}

    /** Offsets of one array, read by index. */
    interface Offsets {
        /** @return offset {@code k} */
        long at(int k);
    }

    /**
     * @param name    the array's name, for messages
     * @param data    the data bytes
     * @param offsets the array's {@code length + 1} offsets, already checked to ascend within the data
     * @param length  the number of values
     * @throws IllegalArgumentException naming the first value that is not well-formed UTF-8
     */
    static void check(String name, byte[] data, Offsets offsets, int length) {
        int end = (int) offsets.at(length);
        int bad = firstMalformed(data, (int) offsets.at(0), end);
        if (bad >= 0) {
            throw new IllegalArgumentException(name + ": value " + valueHolding(offsets, length, bad)
                    + " is not well-formed UTF-8 (byte " + bad + " of the data)");
        }
        for (int k = 1; k < length; k++) {
            long start = offsets.at(k);
            if (start < end && (data[(int) start] & 0xC0) == 0x80) {
                throw new IllegalArgumentException(name + ": value " + k + " starts inside a UTF-8 character (byte "
                        + start + " of the data)");
            }
        }
    }

    /** @return the index of the first byte of a malformed sequence in {@code from .. end - 1}, or -1 */
    private static int firstMalformed(byte[] data, int from, int end) {
        int i = from;
        while (i < end) {
            if (i + 8 <= end) {
                long high = (long) WORDS.get(data, i) & HIGH_BITS;
                if (high != 0 && (high & 0x80) == 0) {
                    // Skip the ASCII bytes before the first one with its high bit set.
                    i += Long.numberOfTrailingZeros(high) >>> 3;
                } else if (high == 0) {
                    i += 8;
                    continue;
                }
            }
            int b = data[i] & 0xFF;
            if (b < 0x80) {
                i++;
                continue;
            }
            int continuation = b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : -1;
            if (continuation < 0 || i + continuation >= end) {
                return i;
            }
            int second = data[i + 1] & 0xFF;
            boolean secondInRange = switch (b) {
                case 0xE0 -> second >= 0xA0 && second <= 0xBF;
                case 0xED -> second >= 0x80 && second <= 0x9F;
                case 0xF0 -> second >= 0x90 && second <= 0xBF;
                case 0xF4 -> second >= 0x80 && second <= 0x8F;
                default -> (second & 0xC0) == 0x80;
            };
            if (!secondInRange) {
                return i;
            }
            for (int c = 2; c <= continuation; c++) {
                if ((data[i + c] & 0xC0) != 0x80) {
                    return i;
                }
            }
            i += continuation + 1;
        }
        return -1;
    }

    private static int valueHolding(Offsets offsets, int length, long at) {
        int low = 0;
        int high = length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (offsets.at(mid) <= at) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }
}
