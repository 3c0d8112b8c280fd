package dev.quiver.internal.validate;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/** Counting in Arrow's LSB-first bitmaps, a 64-bit word at a time. Stateless. */
final class Bits {
    private Bits() {}

    /**
     * @param bitmap a bitmap of at least {@code (to + 7) / 8} bytes
     * @param from   first bit, inclusive
     * @param to     last bit, exclusive
     * @return how many bits in {@code [from, to)} are set
     */
    static long countSet(MemorySegment bitmap, long from, long to) {
        long count = 0;
        long i = from;
        while (i < to && (i & 7) != 0) {
            count += bit(bitmap, i++);
        }
        long bytes = (to - i) >>> 3;
        long at = i >>> 3;
        long words = bytes >>> 3;
        for (long w = 0; w < words; w++) {
            count += Long.bitCount(bitmap.get(JAVA_LONG_UNALIGNED, at + w * 8));
        }
        for (long b = words * 8; b < bytes; b++) {
            count += Integer.bitCount(bitmap.get(JAVA_BYTE, at + b) & 0xff);
        }
        i += bytes << 3;
        while (i < to) {
            count += bit(bitmap, i++);
        }
        return count;
    }

    private static int bit(MemorySegment bitmap, long i) {
        return (bitmap.get(JAVA_BYTE, i >>> 3) >>> (i & 7)) & 1;
    }
}
