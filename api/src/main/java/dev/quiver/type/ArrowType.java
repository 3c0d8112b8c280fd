package dev.quiver.type;

/**
 * An Arrow data type, without field name or nullability (see {@link Field}). Nested types keep their
 * child types in the {@link Field}'s children, as the C Data Interface does.
 */
public sealed interface ArrowType {

    /** @return the C Data Interface format string of this type */
    default String format() {
        return FormatString.write(this);
    }

    /** The null type: no buffers, every value null. */
    record Null() implements ArrowType {}

    /** Booleans, bit-packed. */
    record Bool() implements ArrowType {}

    /**
     * Integers.
     *
     * @param bitWidth 8, 16, 32 or 64
     * @param signed   true for two's complement, false for unsigned
     */
    record Int(int bitWidth, boolean signed) implements ArrowType {
        /** Checks the width. */
        public Int {
            if (bitWidth != 8 && bitWidth != 16 && bitWidth != 32 && bitWidth != 64) {
                throw new IllegalArgumentException("integer bit width must be 8, 16, 32 or 64, not " + bitWidth);
            }
        }
    }

    /**
     * IEEE 754 floating point.
     *
     * @param bitWidth 16 (half), 32 (single) or 64 (double)
     */
    record FloatingPoint(int bitWidth) implements ArrowType {
        /** Checks the width. */
        public FloatingPoint {
            if (bitWidth != 16 && bitWidth != 32 && bitWidth != 64) {
                throw new IllegalArgumentException("float bit width must be 16, 32 or 64, not " + bitWidth);
            }
        }
    }

    /** UTF-8 strings with 32-bit offsets. */
    record Utf8() implements ArrowType {}

    /** Byte strings with 32-bit offsets. */
    record Binary() implements ArrowType {}

    /** Variable-size lists with 32-bit offsets; the element field is the single child. */
    record ListType() implements ArrowType {}

    /** Structs; one child field per member. */
    record Struct() implements ArrowType {}

    /** @return the null type */
    static ArrowType nullType() {
        return new Null();
    }

    /** @return the boolean type */
    static ArrowType bool() {
        return new Bool();
    }

    /**
     * @param bitWidth 8, 16, 32 or 64
     * @param signed   signedness
     * @return an integer type
     */
    static ArrowType integer(int bitWidth, boolean signed) {
        return new Int(bitWidth, signed);
    }

    /**
     * @param bitWidth 16, 32 or 64
     * @return a floating-point type
     */
    static ArrowType floatingPoint(int bitWidth) {
        return new FloatingPoint(bitWidth);
    }

    /** @return the utf8 type */
    static ArrowType utf8() {
        return new Utf8();
    }

    /** @return the binary type */
    static ArrowType binary() {
        return new Binary();
    }

    /** @return the list type */
    static ArrowType list() {
        return new ListType();
    }

    /** @return the struct type */
    static ArrowType struct() {
        return new Struct();
    }
}
