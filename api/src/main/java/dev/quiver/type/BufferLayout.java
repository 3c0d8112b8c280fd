package dev.quiver.type;

/**
 * The physical layout of a type as the C Data Interface sees it: how many buffers an ArrowArray of the
 * type has, what each holds, and how many children it has.
 *
 * @param bufferCount    the exact {@code n_buffers} an array of this type has
 * @param hasValidity    whether buffer 0 is a validity bitmap
 * @param valueBitWidth  bits per value in the data buffer (1 for booleans), or 0 when there is none
 * @param offsetByteWidth bytes per offset in the offsets buffer (buffer 1), or 0 when there is none
 * @param childCount     the exact number of children, or -1 when it varies (struct)
 */
public record BufferLayout(int bufferCount, boolean hasValidity, int valueBitWidth, int offsetByteWidth, int childCount) {

    /**
     * @param type a type
     * @return its layout
     */
    public static BufferLayout of(ArrowType type) {
        return switch (type) {
            case ArrowType.Null n -> new BufferLayout(0, false, 0, 0, 0);
            case ArrowType.Bool b -> new BufferLayout(2, true, 1, 0, 0);
            case ArrowType.Int i -> new BufferLayout(2, true, i.bitWidth(), 0, 0);
            case ArrowType.FloatingPoint f -> new BufferLayout(2, true, f.bitWidth(), 0, 0);
            case ArrowType.Utf8 u -> new BufferLayout(3, true, 8, 4, 0);
            case ArrowType.Binary b -> new BufferLayout(3, true, 8, 4, 0);
            case ArrowType.ListType l -> new BufferLayout(2, true, 0, 4, 1);
            case ArrowType.Struct s -> new BufferLayout(1, true, 0, 0, -1);
        };
    }

    /** @return true if this is a variable-length layout: validity, offsets, then value bytes */
    public boolean isVariableLength() {
        return offsetByteWidth > 0 && bufferCount == 3;
    }

    /** @return the name of buffer {@code i} for messages, for example {@code offsets} */
    public String bufferName(int i) {
        if (i == 0 && hasValidity) {
            return "validity";
        }
        if (offsetByteWidth > 0) {
            return i == 1 ? "offsets" : "data";
        }
        return "data";
    }
}
