package dev.quiver.internal.tensor;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Converts between Arrow's bit-packed booleans and validity bitmaps (least significant bit first) and one
 * byte per value (0 or 1), on host memory.
 */
public final class BitPacking {
    private BitPacking() {}

    /**
     * @param bits     a bitmap
     * @param bitIndex index of the first bit to read
     * @param count    number of values
     * @param bytes    {@code count} bytes to write, 1 for a set bit and 0 for a clear one
     */
    public static void unpack(MemorySegment bits, long bitIndex, long count, MemorySegment bytes) {
        for (long i = 0; i < count; i++) {
            long bit = bitIndex + i;
            boolean set = (bits.get(JAVA_BYTE, bit >>> 3) & (1 << (bit & 7))) != 0;
            bytes.set(JAVA_BYTE, i, (byte) (set ? 1 : 0));
        }
    }

    /**
     * @param bytes {@code count} bytes, any non-zero byte meaning true
     * @param count number of values
     * @param bits  {@code (count + 7) / 8} bytes to write, least significant bit first; unused bits cleared
     * @return how many bytes were zero
     */
    public static long pack(MemorySegment bytes, long count, MemorySegment bits) {
        bits.fill((byte) 0);
        long zeros = 0;
        for (long i = 0; i < count; i++) {
            if (bytes.get(JAVA_BYTE, i) != 0) {
                long at = i >>> 3;
                bits.set(JAVA_BYTE, at, (byte) (bits.get(JAVA_BYTE, at) | (1 << (i & 7))));
            } else {
                zeros++;
            }
        }
        return zeros;
    }
}
