package dev.quiver.internal.abi;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

/**
 * Describes a child of a validated ArrowArray as its parent sees it, for zero-copy child views: struct,
 * sparse union and fixed-size list children are restricted to the parent's offset and length; the children
 * of every other type are whole, since the parent's offsets, sizes or run ends index them. Reads structs
 * only. Stateless.
 */
public final class ChildViews {
    private ChildViews() {}

    /**
     * @param parent a live, validated ArrowArray (80 bytes)
     * @param field  its field
     * @param i      a child index
     * @return the child's description, sharing the parent's buffers
     */
    public static ArrayData child(MemorySegment parent, Field field, int i) {
        ArrayData whole = ArrayData.viewOf(parent);
        ArrayData child = whole.children().get(i);
        Field childField = field.children().get(i);
        long perRow = rowsPerParentRow(field.type());
        if (perRow == 0) {
            return child;
        }
        long offset = Math.addExact(child.offset(), Math.multiplyExact(whole.offset(), perRow));
        long length = Math.multiplyExact(whole.length(), perRow);
        boolean sameRange = offset == child.offset() && length == child.length();
        long nullCount;
        if (sameRange) {
            nullCount = child.nullCount();
        } else if (childField.dictionary() == null && childField.type() instanceof ArrowType.Null) {
            nullCount = length;
        } else {
            nullCount = child.nullCount() == 0 ? 0 : -1;
        }
        return child.withRange(length, nullCount, offset);
    }

    /** @return child slots per parent slot where the parent's range applies to the child, else 0 */
    private static long rowsPerParentRow(ArrowType type) {
        return switch (type) {
            case ArrowType.Struct s -> 1;
            case ArrowType.Union u -> u.mode() == ArrowType.UnionMode.SPARSE ? 1 : 0;
            case ArrowType.FixedSizeList l -> l.listSize();
            case ArrowType.ListType l -> 0;
            case ArrowType.LargeList l -> 0;
            case ArrowType.ListView l -> 0;
            case ArrowType.LargeListView l -> 0;
            case ArrowType.MapType m -> 0;
            case ArrowType.RunEndEncoded r -> 0;
            case ArrowType.Null n -> 0;
            case ArrowType.Bool b -> 0;
            case ArrowType.Int n -> 0;
            case ArrowType.FloatingPoint f -> 0;
            case ArrowType.Decimal d -> 0;
            case ArrowType.FixedSizeBinary b -> 0;
            case ArrowType.Date d -> 0;
            case ArrowType.Time t -> 0;
            case ArrowType.Timestamp t -> 0;
            case ArrowType.Duration d -> 0;
            case ArrowType.Interval n -> 0;
            case ArrowType.Binary b -> 0;
            case ArrowType.Utf8 u -> 0;
            case ArrowType.LargeBinary b -> 0;
            case ArrowType.LargeUtf8 u -> 0;
            case ArrowType.BinaryView b -> 0;
            case ArrowType.Utf8View u -> 0;
        };
    }
}
