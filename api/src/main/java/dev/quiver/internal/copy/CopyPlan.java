package dev.quiver.internal.copy;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * What {@link ArrayCopier} copies of one node: the absolute slots [start, end) of its buffers, the offsets and
 * variadic sizes read for it, and the plans of its children and dictionary. Made and filled by one copier, on
 * the copying thread; reads the node's struct, never writes it.
 */
final class CopyPlan {
    final MemorySegment array;
    final Field field;
    final long start;
    final long end;
    final BufferLayout layout;
    final long nBuffers;
    long outOffset;
    MemorySegment offsets;
    MemorySegment variadicSizes;
    final List<CopyPlan> children = new ArrayList<>();
    CopyPlan dictionary;

    CopyPlan(MemorySegment array, Field field, long start, long end) {
        this.array = Pointers.struct(array, ArrowArrayLayout.LAYOUT);
        this.field = field;
        this.start = start;
        this.end = end;
        this.layout = BufferLayout.of(field.type());
        this.nBuffers = this.array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        ArrowType type = field.type();
        if (field.dictionary() == null && type instanceof ArrowType.RunEndEncoded) {
            outOffset = start;
        } else if (field.dictionary() == null && (type instanceof ArrowType.Union || type instanceof ArrowType.Null)) {
            outOffset = 0;
        } else {
            outOffset = start % 8;
        }
    }

    long base() {
        return start - outOffset;
    }

    MemorySegment pointer(int i) {
        return Pointers.pointers(array.get(ADDRESS, ArrowArrayLayout.BUFFERS), nBuffers).getAtIndex(ADDRESS, i);
    }

    MemorySegment child(int k) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        return Pointers.struct(Pointers.pointers(array.get(ADDRESS, ArrowArrayLayout.CHILDREN), n).getAtIndex(ADDRESS, k), ArrowArrayLayout.LAYOUT);
    }

    /** The offsets buffer entry width in bytes, or 0 when offsets are not re-based for this type. */
    int offsetBytes() {
        if (field.dictionary() != null) {
            return 0;
        }
        return switch (field.type()) {
            case ArrowType.Binary _, ArrowType.Utf8 _, ArrowType.ListType _, ArrowType.MapType _ -> 4;
            case ArrowType.LargeBinary _, ArrowType.LargeUtf8 _, ArrowType.LargeList _ -> 8;
            // no offsets, or offsets that are copied as they are (views, list views, dense unions)
            case ArrowType.Null _, ArrowType.Bool _, ArrowType.Int _, ArrowType.FloatingPoint _, ArrowType.Decimal _,
                 ArrowType.FixedSizeBinary _, ArrowType.BinaryView _, ArrowType.Utf8View _, ArrowType.Date _,
                 ArrowType.Time _, ArrowType.Timestamp _, ArrowType.Duration _, ArrowType.Interval _,
                 ArrowType.FixedSizeList _, ArrowType.ListView _, ArrowType.LargeListView _, ArrowType.Struct _,
                 ArrowType.Union _, ArrowType.RunEndEncoded _ -> 0;
        };
    }

    long offsetAt(long slot) {
        long index = slot - base();
        return offsetBytes() == 4 ? offsets.get(JAVA_INT_UNALIGNED, index * 4) : offsets.get(JAVA_LONG_UNALIGNED, index * 8);
    }
}
