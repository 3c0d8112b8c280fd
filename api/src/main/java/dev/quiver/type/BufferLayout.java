package dev.quiver.type;

import java.util.List;

/**
 * The physical layout of a type as the C Data Interface sees it: which buffers an ArrowArray of the type
 * has, in order, and how many children. View types (binary view, utf8 view) have, after their fixed
 * buffers, any number of variadic data buffers and then one buffer of int64 sizes of those buffers.
 *
 * @param buffers    the fixed buffers, in order
 * @param variadic   true for view types: variadic data buffers and a sizes buffer follow
 * @param childCount the exact number of children, or -1 when the field decides (struct)
 */
public record BufferLayout(List<Buffer> buffers, boolean variadic, int childCount) {

    /** Copies the list. */
    public BufferLayout {
        buffers = List.copyOf(buffers);
    }

    /** What one buffer holds. */
    public enum Kind {
        /** Validity bitmap: one bit per slot, 1 = valid. */
        VALIDITY,
        /** Bit-packed boolean values. */
        BITS,
        /** Fixed-width values of {@link Buffer#bitWidth()} bits per slot. */
        FIXED,
        /** Offsets into a data buffer or child: slots + 1 entries. */
        OFFSETS,
        /** List-view sizes: one per slot. */
        SIZES,
        /** Bytes addressed by the offsets; its size is the last offset. */
        DATA,
        /** Union type ids: int8 per slot. */
        TYPE_IDS,
        /** Dense union offsets: int32 per slot. */
        UNION_OFFSETS,
        /** 16-byte views: one per slot. */
        VIEWS
    }

    /**
     * One buffer.
     *
     * @param kind     what it holds
     * @param bitWidth bits per entry (1 for bitmaps, 8 for bytes, 128 for views)
     */
    public record Buffer(Kind kind, int bitWidth) {
        /**
         * {@return bytes needed to hold {@code slots} entries; DATA has no size of its own (returns 0)}
         * @param slots offset + length of the array
         */
        public long bytesFor(long slots) {
            return switch (kind) {
                case VALIDITY, BITS -> (slots + 7) / 8;
                case OFFSETS -> (slots + 1) * (bitWidth / 8);
                case DATA -> 0;
                default -> Math.multiplyExact(slots, bitWidth / 8);
            };
        }

        /** {@return a name for messages, for example {@code offsets}} */
        public String name() {
            return switch (kind) {
                case VALIDITY -> "validity";
                case BITS, FIXED, DATA -> "data";
                case OFFSETS -> "offsets";
                case SIZES -> "sizes";
                case TYPE_IDS -> "type ids";
                case UNION_OFFSETS -> "union offsets";
                case VIEWS -> "views";
            };
        }
    }

    private static final Buffer VALIDITY = new Buffer(Kind.VALIDITY, 1);
    private static final BufferLayout NULL = new BufferLayout(List.of(), false, 0);
    private static final BufferLayout BOOL = new BufferLayout(List.of(VALIDITY, new Buffer(Kind.BITS, 1)), false, 0);
    /** Fixed-width layouts of 8, 16, 32, 64, 128 and 256 bits, the widths of every type but fixed-size binary. */
    private static final BufferLayout[] FIXED = {makeFixed(8), makeFixed(16), makeFixed(32), makeFixed(64), makeFixed(128), makeFixed(256)};
    private static final BufferLayout VARIABLE_32 = variable(32);
    private static final BufferLayout VARIABLE_64 = variable(64);
    private static final BufferLayout VIEW = new BufferLayout(List.of(VALIDITY, new Buffer(Kind.VIEWS, 128)), true, 0);
    private static final BufferLayout LIST = new BufferLayout(List.of(VALIDITY, new Buffer(Kind.OFFSETS, 32)), false, 1);
    private static final BufferLayout LARGE_LIST = new BufferLayout(List.of(VALIDITY, new Buffer(Kind.OFFSETS, 64)), false, 1);
    private static final BufferLayout FIXED_SIZE_LIST = new BufferLayout(List.of(VALIDITY), false, 1);
    private static final BufferLayout LIST_VIEW = new BufferLayout(List.of(VALIDITY, new Buffer(Kind.OFFSETS, 32), new Buffer(Kind.SIZES, 32)), false, 1);
    private static final BufferLayout LARGE_LIST_VIEW = new BufferLayout(List.of(VALIDITY, new Buffer(Kind.OFFSETS, 64), new Buffer(Kind.SIZES, 64)), false, 1);
    private static final BufferLayout STRUCT = new BufferLayout(List.of(VALIDITY), false, -1);
    private static final BufferLayout RUN_END_ENCODED = new BufferLayout(List.of(), false, 2);

    /**
     * {@return its layout; the same instance for every type of one layout, except unions and fixed-size binaries}
     * @param type a type
     */
    public static BufferLayout of(ArrowType type) {
        // the commonest types first, without the full type switch
        if (type instanceof ArrowType.Int i) {
            return fixed(i.bitWidth());
        }
        if (type instanceof ArrowType.Struct) {
            return STRUCT;
        }
        if (type instanceof ArrowType.Utf8) {
            return VARIABLE_32;
        }
        return switch (type) {
            case ArrowType.Null n -> NULL;
            case ArrowType.Bool b -> BOOL;
            case ArrowType.Int i -> fixed(i.bitWidth());
            case ArrowType.FloatingPoint f -> fixed(f.bitWidth());
            case ArrowType.Decimal d -> fixed(d.bitWidth());
            case ArrowType.FixedSizeBinary w -> fixed(w.byteWidth() * 8);
            case ArrowType.Date d -> fixed(d.unit() == ArrowType.DateUnit.DAY ? 32 : 64);
            case ArrowType.Time t -> fixed(t.bitWidth());
            case ArrowType.Timestamp _, ArrowType.Duration _ -> fixed(64);
            case ArrowType.Interval i -> fixed(i.unit().bitWidth());
            case ArrowType.Binary _, ArrowType.Utf8 _ -> VARIABLE_32;
            case ArrowType.LargeBinary _, ArrowType.LargeUtf8 _ -> VARIABLE_64;
            case ArrowType.BinaryView _, ArrowType.Utf8View _ -> VIEW;
            case ArrowType.ListType _, ArrowType.MapType _ -> LIST;
            case ArrowType.LargeList l -> LARGE_LIST;
            case ArrowType.FixedSizeList l -> FIXED_SIZE_LIST;
            case ArrowType.ListView l -> LIST_VIEW;
            case ArrowType.LargeListView l -> LARGE_LIST_VIEW;
            case ArrowType.Struct s -> STRUCT;
            case ArrowType.Union u -> new BufferLayout(u.mode() == ArrowType.UnionMode.DENSE
                    ? List.of(new Buffer(Kind.TYPE_IDS, 8), new Buffer(Kind.UNION_OFFSETS, 32))
                    : List.of(new Buffer(Kind.TYPE_IDS, 8)), false, u.typeIds().size());
            case ArrowType.RunEndEncoded r -> RUN_END_ENCODED;
        };
    }

    private static BufferLayout fixed(int bitWidth) {
        int index = Integer.numberOfTrailingZeros(bitWidth) - 3;
        return Integer.bitCount(bitWidth) == 1 && index >= 0 && index < FIXED.length ? FIXED[index] : makeFixed(bitWidth);
    }

    private static BufferLayout makeFixed(int bitWidth) {
        return new BufferLayout(List.of(VALIDITY, new Buffer(Kind.FIXED, bitWidth)), false, 0);
    }

    private static BufferLayout variable(int offsetBits) {
        return new BufferLayout(List.of(VALIDITY, new Buffer(Kind.OFFSETS, offsetBits), new Buffer(Kind.DATA, 8)), false, 0);
    }

    /** {@return whether buffer 0 is a validity bitmap} */
    public boolean hasValidity() {
        return !buffers.isEmpty() && buffers.getFirst().kind() == Kind.VALIDITY;
    }

    /** {@return the number of fixed buffers ({@code n_buffers} unless {@link #variadic()})} */
    public int bufferCount() {
        return buffers.size();
    }

    /**
     * {@return whether that count fits this layout}
     * @param nBuffers the {@code n_buffers} of an array
     */
    public boolean acceptsBufferCount(long nBuffers) {
        return variadic ? nBuffers >= buffers.size() + 1 : nBuffers == buffers.size();
    }

    /**
     * {@return a name for messages, for example {@code offsets} or {@code variadic data 2}}
     * @param i a buffer index of an array with {@code nBuffers} buffers
     * @param nBuffers the array's {@code n_buffers}
     */
    public String bufferName(int i, long nBuffers) {
        if (i < buffers.size()) {
            return buffers.get(i).name();
        }
        return i == nBuffers - 1 ? "variadic sizes" : "variadic data " + (i - buffers.size());
    }
}
