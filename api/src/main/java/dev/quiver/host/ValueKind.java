package dev.quiver.host;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

/**
 * How the values of one array are stored, as far as {@link ArrayReader}'s typed getters care: the kind of
 * value, its width in bits and whether its bytes are UTF-8. Computed once per reader.
 *
 * @param kind     the kind of value
 * @param bitWidth bits per value for fixed-width kinds, bits per offset for {@link Kind#OFFSET_BINARY}, 0
 *                 otherwise
 * @param utf8     whether the values are strings
 */
record ValueKind(Kind kind, int bitWidth, boolean utf8) {
    /** Kinds of value. */
    enum Kind {
        /** The null type. */
        NULL,
        /** Bit-packed booleans. */
        BOOLEAN,
        /** Two's complement integers: signed integers, dates, times, timestamps, durations, year-month intervals. */
        SIGNED,
        /** Unsigned integers. */
        UNSIGNED,
        /** IEEE 754 floating point. */
        FLOAT,
        /** Fixed-point decimals. */
        DECIMAL,
        /** Day-time and month-day-nano intervals. */
        INTERVAL,
        /** Fixed-size binary. */
        FIXED_BINARY,
        /** Binary and utf8 with 32- or 64-bit offsets. */
        OFFSET_BINARY,
        /** Binary and utf8 views. */
        VIEW_BINARY,
        /** Lists, maps and structs. */
        NESTED,
        /** Sparse and dense unions. */
        UNION,
        /** Run-end encoded arrays. */
        RUN_END_ENCODED,
        /** Dictionary-encoded arrays. */
        DICTIONARY
    }

    /** @return how the values of {@code field} are stored */
    static ValueKind of(Field field) {
        if (field.dictionary() != null) {
            return new ValueKind(Kind.DICTIONARY, 0, false);
        }
        return switch (field.type()) {
            case ArrowType.Null t -> new ValueKind(Kind.NULL, 0, false);
            case ArrowType.Bool t -> new ValueKind(Kind.BOOLEAN, 1, false);
            case ArrowType.Int t -> new ValueKind(t.signed() ? Kind.SIGNED : Kind.UNSIGNED, t.bitWidth(), false);
            case ArrowType.FloatingPoint t -> new ValueKind(Kind.FLOAT, t.bitWidth(), false);
            case ArrowType.Decimal t -> new ValueKind(Kind.DECIMAL, t.bitWidth(), false);
            case ArrowType.FixedSizeBinary t -> new ValueKind(Kind.FIXED_BINARY, t.byteWidth() * 8, false);
            case ArrowType.Binary t -> new ValueKind(Kind.OFFSET_BINARY, 32, false);
            case ArrowType.LargeBinary t -> new ValueKind(Kind.OFFSET_BINARY, 64, false);
            case ArrowType.Utf8 t -> new ValueKind(Kind.OFFSET_BINARY, 32, true);
            case ArrowType.LargeUtf8 t -> new ValueKind(Kind.OFFSET_BINARY, 64, true);
            case ArrowType.BinaryView t -> new ValueKind(Kind.VIEW_BINARY, 128, false);
            case ArrowType.Utf8View t -> new ValueKind(Kind.VIEW_BINARY, 128, true);
            case ArrowType.Date t -> new ValueKind(Kind.SIGNED, t.unit() == ArrowType.DateUnit.DAY ? 32 : 64, false);
            case ArrowType.Time t -> new ValueKind(Kind.SIGNED, t.bitWidth(), false);
            case ArrowType.Timestamp t -> new ValueKind(Kind.SIGNED, 64, false);
            case ArrowType.Duration t -> new ValueKind(Kind.SIGNED, 64, false);
            case ArrowType.Interval t -> t.unit() == dev.quiver.type.IntervalUnit.YEAR_MONTH
                    ? new ValueKind(Kind.SIGNED, 32, false) : new ValueKind(Kind.INTERVAL, t.unit().bitWidth(), false);
            case ArrowType.ListType t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.LargeList t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.FixedSizeList t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.ListView t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.LargeListView t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.MapType t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.Struct t -> new ValueKind(Kind.NESTED, 0, false);
            case ArrowType.Union t -> new ValueKind(Kind.UNION, 0, false);
            case ArrowType.RunEndEncoded t -> new ValueKind(Kind.RUN_END_ENCODED, 0, false);
        };
    }

    /** @return whether the values are integers of {@code bitWidth} bits or fewer */
    boolean isIntegerOfAtMost(int bits) {
        return (kind == Kind.SIGNED || kind == Kind.UNSIGNED) && bitWidth <= bits;
    }

    /** @return whether the values are stored as {@code bits}-bit integers, floats included when {@code floats} */
    boolean isStoredAs(int bits, boolean floats) {
        return (kind == Kind.SIGNED || kind == Kind.UNSIGNED || floats && kind == Kind.FLOAT) && bitWidth == bits;
    }
}
