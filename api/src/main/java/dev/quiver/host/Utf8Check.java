package dev.quiver.host;

import dev.quiver.internal.validate.Utf8Scan;

import java.lang.foreign.MemorySegment;

/**
 * Checks that every value of a utf8 array is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF): the bytes between the first and the last offset must be well-formed as a whole,
 * and no value may start inside a character ({@link Utf8Scan}). Stateless.
 */
final class Utf8Check {
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
        return (int) Utf8Scan.firstMalformed(MemorySegment.ofArray(data), from, end);
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
