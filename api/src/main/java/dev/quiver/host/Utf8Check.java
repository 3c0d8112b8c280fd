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
        MemorySegment bytes = MemorySegment.ofArray(data);
        int end = (int) offsets.at(length);
        long found = Utf8Scan.check(bytes, offsets.at(0), end);
        if (found >= 0) {
            throw new IllegalArgumentException(name + ": value " + Utf8Scan.valueHolding(k -> offsets.at((int) k), 0, length, found)
                    + " is not well-formed UTF-8 (byte " + found + " of the data)");
        }
        if (found == Utf8Scan.ASCII) {
            return; // no multi-byte character, so no value can start inside one
        }
        for (int k = 1; k < length; k++) {
            long start = offsets.at(k);
            if (Utf8Scan.startsInside(bytes, start, end)) {
                throw new IllegalArgumentException(name + ": value " + k + " starts inside a UTF-8 character (byte "
                        + start + " of the data)");
            }
        }
    }
}
