package dev.quiver.host;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Which values of an array built by {@link FixedWidthVectors} or {@link BinaryVectors} are valid (not null):
 * all of them, an Arrow validity bitmap (least significant bit first, 1 = valid) held in {@code byte[]} or
 * in little-endian {@code long[]} words and starting at a bit offset, or one {@code boolean} per value.
 *
 * <p>{@link #of(boolean[])} packs the flags into a bitmap of its own when called. The {@code bitmap}
 * factories keep a reference to the caller's array: the builder the validity is passed to reads (and copies)
 * the bits during its call, so the caller may reuse the array afterwards but must not modify it while that
 * call runs. Otherwise immutable; any thread may use it.
 *
 * {@snippet class=dev.quiver.snippets.HostSnippets region=validity}
 */
public final class Validity {
    private static final Validity ALL_VALID = new Validity(null, 0, Long.MAX_VALUE, "all valid");

    private final MemorySegment bits;
    private final long bitOffset;
    private final long capacity;
    private final String description;

    private Validity(MemorySegment bits, long bitOffset, long capacity, String description) {
        this.bits = bits;
        this.bitOffset = bitOffset;
        this.capacity = capacity;
        this.description = description;
    }

    /** {@return validity that makes every value valid: the array gets no validity bitmap} */
    public static Validity allValid() {
        return ALL_VALID;
    }

    /**
     * {@return validity read from the flags}
     * @param valid one flag per value, {@code true} for valid; at least as long as the array built with it
     */
    public static Validity of(boolean[] valid) {
        Objects.requireNonNull(valid, "valid");
        return new Validity(MemorySegment.ofArray(Bitmaps.pack(valid, valid.length)), 0, valid.length, "a boolean[" + valid.length + "]");
    }

    /**
     * {@return validity read from {@code bitmap}}
     * @param bitmap    an Arrow validity bitmap, least significant bit first, 1 for valid
     * @param bitOffset the bit that describes the first value
     * @throws IllegalArgumentException if {@code bitOffset} is negative or past the bitmap
     */
    public static Validity bitmap(byte[] bitmap, long bitOffset) {
        Objects.requireNonNull(bitmap, "bitmap");
        return bits(MemorySegment.ofArray(bitmap), bitOffset, "a byte[" + bitmap.length + "] bitmap");
    }

    /**
     * {@return validity read from {@code words}}
     * @param words     an Arrow validity bitmap as 64-bit words: value {@code k} is bit {@code k % 64} (least
     *                  significant first) of word {@code k / 64}, 1 for valid
     * @param bitOffset the bit that describes the first value
     * @throws IllegalArgumentException if {@code bitOffset} is negative or past the bitmap
     */
    public static Validity bitmap(long[] words, long bitOffset) {
        Objects.requireNonNull(words, "words");
        return bits(Bitmaps.ofWords(words), bitOffset, "a long[" + words.length + "] bitmap");
    }

    private static Validity bits(MemorySegment bits, long bitOffset, String description) {
        long size = bits.byteSize() * 8;
        if (bitOffset < 0 || bitOffset > size) {
            throw new IllegalArgumentException("validity bit offset " + bitOffset + " is outside " + description + " of " + size + " bits");
        }
        return new Validity(bits, bitOffset, size - bitOffset, description + " from bit " + bitOffset);
    }

    /**
     * Copies the validity of {@code length} values into a new bitmap starting at bit 0.
     *
     * @return the bitmap, or {@link MemorySegment#NULL} if every value is valid
     * @throws IllegalArgumentException if this validity describes fewer than {@code length} values
     */
    Bitmap toBitmap(long length, String name) {
        if (bits == null) {
            return new Bitmap(MemorySegment.NULL, 0);
        }
        if (capacity < length) {
            throw new IllegalArgumentException(name + ": validity is too short: " + description + " describes "
                    + capacity + " values, the array has " + length);
        }
        MemorySegment copy = Bitmaps.copy(bits, bitOffset, length);
        long nulls = Bitmaps.countClear(copy, 0, length);
        return nulls == 0 ? new Bitmap(MemorySegment.NULL, 0) : new Bitmap(copy, nulls);
    }

    /**
     * A validity bitmap ready for an array.
     *
     * @param bits      the bitmap starting at bit 0, or {@link MemorySegment#NULL} when nothing is null
     * @param nullCount how many values are null
     */
    record Bitmap(MemorySegment bits, long nullCount) {}

    @Override
    public String toString() {
        return "Validity[" + description + "]";
    }
}
