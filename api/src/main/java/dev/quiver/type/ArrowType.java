package dev.quiver.type;

import java.util.List;

/**
 * An Arrow data type, without field name, nullability or dictionary encoding (see {@link Field}). Nested
 * types keep their child types in the {@link Field}'s children, as the C Data Interface does. Every record
 * is an immutable value; {@link #format()} gives its C Data Interface format string.
 */
public sealed interface ArrowType {

    /** {@return the C Data Interface format string of this type} */
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

    /**
     * Fixed-point decimals, two's complement little-endian integers of {@code bitWidth} bits scaled by
     * 10^-scale.
     *
     * @param precision total digits, 1..(9, 18, 38, 76 for 32, 64, 128, 256 bits)
     * @param scale     digits after the point; may be negative
     * @param bitWidth  32, 64, 128 or 256
     */
    record Decimal(int precision, int scale, int bitWidth) implements ArrowType {
        /** Checks width and precision. */
        public Decimal {
            int max = switch (bitWidth) {
                case 32 -> 9;
                case 64 -> 18;
                case 128 -> 38;
                case 256 -> 76;
                default -> throw new IllegalArgumentException("decimal bit width must be 32, 64, 128 or 256, not " + bitWidth);
            };
            if (precision < 1 || precision > max) {
                throw new IllegalArgumentException("decimal" + bitWidth + " precision must be 1.." + max + ", not " + precision);
            }
        }
    }

    /**
     * Byte strings of one fixed width.
     *
     * @param byteWidth bytes per value, 0..{@link #MAX_BYTE_WIDTH}
     */
    record FixedSizeBinary(int byteWidth) implements ArrowType {
        /** The widest width whose size in bits fits an {@code int}, as a layout's bit width must. */
        public static final int MAX_BYTE_WIDTH = Integer.MAX_VALUE / 8;

        /** Checks the width. */
        public FixedSizeBinary {
            if (byteWidth < 0) {
                throw new IllegalArgumentException("fixed-size binary width must not be negative: " + byteWidth);
            }
            if (byteWidth > MAX_BYTE_WIDTH) {
                throw new IllegalArgumentException("fixed-size binary width must be at most " + MAX_BYTE_WIDTH
                        + " bytes (its size in bits must fit 32 bits), not " + byteWidth);
            }
        }
    }

    /** Byte strings with 32-bit offsets. */
    record Binary() implements ArrowType {}

    /** Byte strings with 64-bit offsets. */
    record LargeBinary() implements ArrowType {}

    /** Byte strings as 16-byte views into variadic data buffers. */
    record BinaryView() implements ArrowType {}

    /** UTF-8 strings with 32-bit offsets. */
    record Utf8() implements ArrowType {}

    /** UTF-8 strings with 64-bit offsets. */
    record LargeUtf8() implements ArrowType {}

    /** UTF-8 strings as 16-byte views into variadic data buffers. */
    record Utf8View() implements ArrowType {}

    /**
     * Dates since the epoch: int32 days (date32) or int64 milliseconds (date64).
     *
     * @param unit the unit, which decides the width
     */
    record Date(DateUnit unit) implements ArrowType {
        /** {@return a date32 type} */
        public static Date days() {
            return new Date(DateUnit.DAY);
        }

        /** {@return a date64 type} */
        public static Date milliseconds() {
            return new Date(DateUnit.MILLISECOND);
        }
    }

    /** The unit of a date. */
    enum DateUnit {
        /** date32: int32 days. */
        DAY,
        /** date64: int64 milliseconds. */
        MILLISECOND
    }

    /**
     * Time of day: int32 for seconds and milliseconds, int64 for micro- and nanoseconds.
     *
     * @param unit the unit
     */
    record Time(TimeUnit unit) implements ArrowType {
        /** {@return 32 or 64} */
        public int bitWidth() {
            return unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64;
        }
    }

    /**
     * int64 instants since the epoch.
     *
     * @param unit     the unit
     * @param timezone an IANA zone name or offset, or the empty string for a zone-less timestamp
     */
    record Timestamp(TimeUnit unit, String timezone) implements ArrowType {
        /** Checks the zone is not null. */
        public Timestamp {
            java.util.Objects.requireNonNull(timezone, "timezone (use \"\" for none)");
        }
    }

    /**
     * int64 durations.
     *
     * @param unit the unit
     */
    record Duration(TimeUnit unit) implements ArrowType {}

    /**
     * Calendar intervals.
     *
     * @param unit the layout
     */
    record Interval(IntervalUnit unit) implements ArrowType {}

    /** Variable-size lists with 32-bit offsets; the element field is the single child. */
    record ListType() implements ArrowType {}

    /** Variable-size lists with 64-bit offsets. */
    record LargeList() implements ArrowType {}

    /**
     * Lists of one fixed size.
     *
     * @param listSize elements per list, at least 0
     */
    record FixedSizeList(int listSize) implements ArrowType {
        /** Checks the size. */
        public FixedSizeList {
            if (listSize < 0) {
                throw new IllegalArgumentException("fixed-size list size must not be negative: " + listSize);
            }
        }
    }

    /** Lists as (offset, size) pairs of 32 bits. */
    record ListView() implements ArrowType {}

    /** Lists as (offset, size) pairs of 64 bits. */
    record LargeListView() implements ArrowType {}

    /** Structs; one child field per member. */
    record Struct() implements ArrowType {}

    /**
     * Maps: a list of {@code entries} structs with a non-null {@code key} and a {@code value}.
     *
     * @param keysSorted whether keys are sorted within each map ({@code ARROW_FLAG_MAP_KEYS_SORTED})
     */
    record MapType(boolean keysSorted) implements ArrowType {}

    /**
     * Unions: one child per member; int8 type ids select the member of each slot.
     *
     * @param mode    sparse or dense
     * @param typeIds the type id of each child, in child order (0..127)
     */
    record Union(UnionMode mode, List<Integer> typeIds) implements ArrowType {
        /** Copies and checks the ids. */
        public Union {
            typeIds = List.copyOf(typeIds);
            for (int id : typeIds) {
                if (id < 0 || id > 127) {
                    throw new IllegalArgumentException("union type ids must be 0..127, not " + id);
                }
            }
            if (typeIds.stream().distinct().count() != typeIds.size()) {
                throw new IllegalArgumentException("union type ids must be distinct: " + typeIds);
            }
        }
    }

    /** Sparse or dense union layout. */
    enum UnionMode {
        /** Every child has the union's length; no offsets. */
        SPARSE,
        /** Children are packed; int32 offsets index into the selected child. */
        DENSE
    }

    /** Run-end encoded: children {@code run_ends} (int16/32/64) and {@code values}. */
    record RunEndEncoded() implements ArrowType {}

    /** {@return the null type} */
    static ArrowType nullType() {
        return new Null();
    }

    /** {@return the boolean type} */
    static ArrowType bool() {
        return new Bool();
    }

    /**
     * {@return an integer type}
     * @param bitWidth 8, 16, 32 or 64
     * @param signed   signedness
     */
    static ArrowType integer(int bitWidth, boolean signed) {
        return new Int(bitWidth, signed);
    }

    /**
     * {@return a floating-point type}
     * @param bitWidth 16, 32 or 64
     */
    static ArrowType floatingPoint(int bitWidth) {
        return new FloatingPoint(bitWidth);
    }

    /** {@return the utf8 type} */
    static ArrowType utf8() {
        return new Utf8();
    }

    /** {@return the binary type} */
    static ArrowType binary() {
        return new Binary();
    }

    /** {@return the list type} */
    static ArrowType list() {
        return new ListType();
    }

    /** {@return the struct type} */
    static ArrowType struct() {
        return new Struct();
    }
}
