package dev.quiver.internal.validate;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.function.LongUnaryOperator;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) over a range of
 * bytes in any segment, heap or native. ASCII is skipped 64 bytes at a time (eight words or-ed together),
 * then eight bytes at a time within a block that holds other bytes; each multi-byte
 * sequence is checked by its lead byte's allowed second byte and its continuation bytes. The whole data of a
 * utf8 array is well formed, value by value, exactly when the bytes from its first to its last offset are
 * well formed as a whole and no value starts inside a character ({@link #startsInside}), which is how the
 * validators check it: one pass over the data, one look per offset. Stateless.
 */
public final class Utf8Scan {
    /** What {@link #check} says of bytes that are all ASCII. */
    public static final long ASCII = -1;
    /** What {@link #check} says of well-formed bytes with at least one multi-byte character. */
    public static final long MULTI_BYTE = -2;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    /** Bytes checked for ASCII at once. */
    private static final int BLOCK = 64;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Set in what {@link #scan} returns when a multi-byte character was seen. */
    private static final long MULTI_BYTE_SEEN = 1L << 40;
    /** Offsets looked at through one slice. */
    private static final long OFFSETS_WINDOW = 1 << 16;
    /** Bytes scanned through one int-indexed slice. */
    private static final long WINDOW = 1 << 20;

    private Utf8Scan() {}

    /**
     * @param data the bytes, readable over {@code [from, end)}
     * @param from the first byte
     * @param end  one past the last byte
     * @return the index of the first byte of the first malformed or cut-off sequence, or -1 if all are well formed
     */
    public static long firstMalformed(MemorySegment data, long from, long end) {
        long found = check(data, from, end);
        return found >= 0 ? found : -1;
    }

    /**
     * @param data the bytes, readable over {@code [from, end)}
     * @param from the first byte
     * @param end  one past the last byte
     * @return the index of the first byte of the first malformed or cut-off sequence; else {@link #ASCII} or
     *         {@link #MULTI_BYTE} (only where there are multi-byte characters can a value start inside one)
     */
    public static long check(MemorySegment data, long from, long end) {
        // int-indexed windows: the JIT hoists the bounds checks out of counted int loops
        boolean multiByte = false;
        long start = from;
        while (start < end) {
            long stop = Math.min(end, start + WINDOW);
            long sliceEnd = Math.min(end, stop + 3);
            long next = scan(data.asSlice(start, sliceEnd - start), (int) (stop - start), (int) (sliceEnd - start));
            if (next < 0) {
                return start + (-1 - next);
            }
            multiByte |= (next & MULTI_BYTE_SEEN) != 0;
            start += next & ~MULTI_BYTE_SEEN;
        }
        return multiByte ? MULTI_BYTE : ASCII;
    }

    /**
     * Checks the sequences that start before {@code stop} in a window whose bytes end at {@code end} (at
     * most three past {@code stop}, so that a sequence starting before {@code stop} can be read whole).
     *
     * @return where the next window starts, relative to this one, with {@link #MULTI_BYTE_SEEN} set if a
     *         multi-byte character was seen, or {@code -1 - position} of a malformed or cut-off sequence
     */
    private static long scan(MemorySegment window, int stop, int end) {
        long seen = 0;
        int i = 0;
        // where the block that last held other bytes ends: no block is tried again before it
        int mixedUntil = 0;
        while (i < stop) {
            // whole blocks of ASCII first: eight words or-ed together, no branch per word
            if (i >= mixedUntil && i + BLOCK <= stop) {
                long high = 0;
                for (int k = 0; k < BLOCK; k += 8) {
                    high |= window.get(WORD, i + k);
                }
                if ((high & HIGH_BITS) == 0) {
                    i += BLOCK;
                    continue;
                }
                mixedUntil = i + BLOCK;
            }
            long word;
            if (i + 8 <= end) {
                word = window.get(WORD, i);
                long high = word & HIGH_BITS;
                if (high == 0) {
                    i += 8;
                    continue;
                }
                int ascii = Long.numberOfTrailingZeros(high) >>> 3;
                if (ascii > 0) {
                    // skip the ASCII bytes before the first one with its high bit set
                    i += ascii;
                    continue;
                }
            } else {
                word = tail(window, i, end);
                if ((word & 0x80) == 0) {
                    i++;
                    continue;
                }
            }
            seen = MULTI_BYTE_SEEN;
            int length = sequenceLength(word);
            if (length < 0 || i + length > end) {
                return -1 - i;
            }
            i += length;
        }
        return i | seen;
    }

    /** @return up to eight bytes from {@code i} as a little-endian word, zeros past {@code end} */
    private static long tail(MemorySegment window, int i, int end) {
        long word = 0;
        for (int k = 0; k < 8 && i + k < end; k++) {
            word |= (window.get(JAVA_BYTE, i + k) & 0xFFL) << (8 * k);
        }
        return word;
    }

    /**
     * @param word the bytes from a lead byte on (the lead in the low byte), little-endian
     * @return the length of the well-formed multi-byte sequence it starts (2, 3 or 4), or -1
     */
    private static int sequenceLength(long word) {
        int b = (int) word & 0xFF;
        int second = (int) (word >>> 8) & 0xFF;
        if (b >= 0xC2 && b <= 0xDF) {
            return (second & 0xC0) == 0x80 ? 2 : -1;
        }
        int third = (int) (word >>> 16) & 0xFF;
        if (b >= 0xE0 && b <= 0xEF) {
            boolean secondInRange = b == 0xE0 ? second >= 0xA0 && second <= 0xBF
                    : b == 0xED ? second >= 0x80 && second <= 0x9F
                    : (second & 0xC0) == 0x80;
            return secondInRange && (third & 0xC0) == 0x80 ? 3 : -1;
        }
        int fourth = (int) (word >>> 24) & 0xFF;
        if (b >= 0xF0 && b <= 0xF4) {
            boolean secondInRange = b == 0xF0 ? second >= 0x90 && second <= 0xBF
                    : b == 0xF4 ? second >= 0x80 && second <= 0x8F
                    : (second & 0xC0) == 0x80;
            return secondInRange && (third & 0xC0) == 0x80 && (fourth & 0xC0) == 0x80 ? 4 : -1;
        }
        return -1;
    }

    /**
     * The values of a utf8 array whose start falls inside a character, by 32-bit offsets.
     *
     * @param offsets the offsets, readable at {@code [from, to)}
     * @param from    the first slot whose start is looked at
     * @param to      one past the last such slot
     * @param data    the data, readable over {@code [0, last)}
     * @param last    the last offset: a start there or past it is the end, not inside a character
     * @return the first such slot, or -1
     */
    public static long firstStartInside32(MemorySegment offsets, long from, long to, MemorySegment data, long last) {
        for (long window = from; window < to; window += OFFSETS_WINDOW) {
            int count = (int) Math.min(OFFSETS_WINDOW, to - window);
            MemorySegment slice = offsets.asSlice(window * 4, count * 4L);
            int inside = 0;
            for (int k = 0; k < count; k++) {
                long start = slice.get(INT, k * 4L);
                inside |= start < last ? ((data.get(JAVA_BYTE, start) & 0xC0) == 0x80 ? 1 : 0) : 0;
            }
            if (inside != 0) {
                for (int k = 0; k < count; k++) {
                    if (startsInside(data, slice.get(INT, k * 4L), last)) {
                        return window + k;
                    }
                }
            }
        }
        return -1;
    }

    /**
     * {@link #firstStartInside32} for 64-bit offsets.
     *
     * @return the first slot in {@code [from, to)} whose start falls inside a character, or -1
     */
    public static long firstStartInside64(MemorySegment offsets, long from, long to, MemorySegment data, long last) {
        for (long k = from; k < to; k++) {
            if (startsInside(data, offsets.get(LONG, k * 8), last)) {
                return k;
            }
        }
        return -1;
    }

    /**
     * The slot whose bytes hold a given data byte, for naming a malformed value.
     *
     * @param offsetAt the offset of a slot, by slot index (ascending)
     * @param from     the first slot
     * @param to       one past the last slot, more than {@code from}
     * @param at       a data byte at or past the first slot's offset
     * @return the last slot in {@code [from, to)} that starts at or before {@code at}
     */
    public static long valueHolding(LongUnaryOperator offsetAt, long from, long to, long at) {
        long low = from;
        long high = to - 1;
        while (low < high) {
            long mid = (low + high + 1) >>> 1;
            if (offsetAt.applyAsLong(mid) <= at) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * @param data  the bytes
     * @param start where a value starts
     * @param end   one past the last byte of the data in use
     * @return true if {@code start} falls inside a character: before {@code end} on a continuation byte
     */
    public static boolean startsInside(MemorySegment data, long start, long end) {
        return start < end && (data.get(JAVA_BYTE, start) & 0xC0) == 0x80;
    }
}
