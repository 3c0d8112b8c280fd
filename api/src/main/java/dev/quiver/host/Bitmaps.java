package dev.quiver.host;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Arrow bitmaps (least significant bit first) in heap memory: packing booleans, realigning a bitmap that
 * starts at a bit offset, counting clear bits. Stateless; every method reads its arguments during the call
 * and keeps no reference to them.
 */
final class Bitmaps {
    private static final MemorySegment NO_BITS = MemorySegment.ofArray(new byte[0]);

    private Bitmaps() {}

    /** @return {@code (bits + 7) / 8} */
    static int bytesFor(long bits) {
        return Math.toIntExact((bits + 7) >>> 3);
    }

    /** Packs {@code count} booleans from {@code values[0]} into a new bitmap; unused bits are clear. */
    static byte[] pack(boolean[] values, int count) {
        byte[] bits = new byte[bytesFor(count)];
        int whole = count & ~7;
        for (int i = 0; i < whole; i += 8) {
            bits[i >>> 3] = (byte) ((values[i] ? 1 : 0) | (values[i + 1] ? 2 : 0) | (values[i + 2] ? 4 : 0)
                    | (values[i + 3] ? 8 : 0) | (values[i + 4] ? 16 : 0) | (values[i + 5] ? 32 : 0)
                    | (values[i + 6] ? 64 : 0) | (values[i + 7] ? 128 : 0));
        }
        for (int i = whole; i < count; i++) {
            if (values[i]) {
                bits[i >>> 3] |= (byte) (1 << (i & 7));
            }
        }
        return bits;
    }

    /**
     * Copies {@code count} bits starting at bit {@code from} of {@code source} into a new bitmap that starts at
     * bit 0; unused bits of the last byte are clear.
     */
    static MemorySegment copy(MemorySegment source, long from, long count) {
        if (count == 0) {
            return NO_BITS;
        }
        byte[] bits = new byte[bytesFor(count)];
        MemorySegment out = MemorySegment.ofArray(bits);
        int shift = (int) (from & 7);
        long first = from >>> 3;
        if (shift == 0) {
            MemorySegment.copy(source, first, out, 0, bits.length);
        } else {
            long available = source.byteSize();
            for (int j = 0; j < bits.length; j++) {
                int low = (source.get(JAVA_BYTE, first + j) & 0xFF) >>> shift;
                int high = first + j + 1 < available ? source.get(JAVA_BYTE, first + j + 1) << (8 - shift) : 0;
                bits[j] = (byte) (low | high);
            }
        }
        int tail = (int) (count & 7);
        if (tail != 0) {
            bits[bits.length - 1] &= (byte) ((1 << tail) - 1);
        }
        return out;
    }

    /** @return a bitmap of little-endian 64-bit words as bytes in Arrow order (the words themselves when the platform is little-endian) */
    static MemorySegment ofWords(long[] words) {
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            return MemorySegment.ofArray(words);
        }
        return LittleEndian.copyOf(words, words.length);
    }

    /** @return how many of the bits {@code from .. from + count - 1} of {@code bits} are clear */
    static long countClear(MemorySegment bits, long from, long count) {
        long set = 0;
        long i = from;
        long end = from + count;
        while (i < end && (i & 63) != 0) {
            set += bit(bits, i) ? 1 : 0;
            i++;
        }
        for (; i + 64 <= end; i += 64) {
            set += Long.bitCount(bits.get(JAVA_LONG_UNALIGNED, i >>> 3));
        }
        for (; i < end; i++) {
            set += bit(bits, i) ? 1 : 0;
        }
        return count - set;
    }

    /** @return bit {@code index} of {@code bits} */
    static boolean bit(MemorySegment bits, long index) {
        return (bits.get(JAVA_BYTE, index >>> 3) & (1 << (index & 7))) != 0;
    }
}
