package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The size in bytes a validated ArrowArray implies for one of its buffers, counted from the buffer's
 * start: from type, offset and length for fixed layouts, and, only where the caller says host memory may
 * be read, from the last offset (data buffers) or the sizes buffer (variadic buffers of views). Stateless.
 */
public final class BufferSizes {
    private BufferSizes() {}

    /**
     * @param array    a live, validated ArrowArray (80 bytes) of {@code field}
     * @param field    its field
     * @param i        a buffer index below its {@code n_buffers}
     * @param readHost whether the buffers are host memory that may be read now
     * @return the implied size in bytes, 0 for an absent buffer, or -1 if unknown
     */
    public static long impliedSize(MemorySegment array, Field field, int i, boolean readHost) {
        MemorySegment s = array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        MemorySegment pointer = ArrayData.bufferPointer(s, i);
        if (pointer.equals(MemorySegment.NULL)) {
            return 0;
        }
        long slots;
        try {
            slots = Math.addExact(s.get(JAVA_LONG, ArrowArrayLayout.OFFSET), s.get(JAVA_LONG, ArrowArrayLayout.LENGTH));
            BufferLayout layout = BufferLayout.of(field.type());
            int fixed = layout.buffers().size();
            if (i < fixed) {
                return fixedBuffer(s, field, layout.buffers().get(i), i, slots, readHost);
            }
            long nBuffers = s.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
            if (i == nBuffers - 1) {
                return Math.multiplyExact(nBuffers - fixed - 1, 8L);
            }
            if (!readHost) {
                return -1;
            }
            MemorySegment sizes = ArrayData.bufferPointer(s, (int) (nBuffers - 1)).reinterpret((nBuffers - fixed - 1) * 8L);
            return sizes.get(JAVA_LONG_UNALIGNED, (i - fixed) * 8L);
        } catch (ArithmeticException overflow) {
            return -1;
        }
    }

    private static long fixedBuffer(MemorySegment array, Field field, BufferLayout.Buffer buffer, int i, long slots,
                                    boolean readHost) {
        boolean listView = field.dictionary() == null
                && (field.type() instanceof ArrowType.ListView || field.type() instanceof ArrowType.LargeListView);
        return switch (buffer.kind()) {
            case DATA -> readHost ? lastOffset(array, i - 1, slots, BufferLayout.of(field.type()).buffers().get(i - 1).bitWidth()) : -1;
            case OFFSETS -> listView ? Math.multiplyExact(slots, buffer.bitWidth() / 8) : buffer.bytesFor(slots);
            case VALIDITY, BITS, FIXED, SIZES, TYPE_IDS, UNION_OFFSETS, VIEWS -> buffer.bytesFor(slots);
        };
    }

    private static long lastOffset(MemorySegment array, int offsetsIndex, long slots, int bitWidth) {
        MemorySegment offsets = ArrayData.bufferPointer(array, offsetsIndex);
        if (offsets.equals(MemorySegment.NULL)) {
            return 0;   // only an empty array may omit its offsets: it addresses no data
        }
        long at = Math.multiplyExact(slots, bitWidth / 8);
        MemorySegment last = offsets.reinterpret(at + bitWidth / 8);
        return bitWidth == 32 ? last.get(JAVA_INT_UNALIGNED, at) : last.get(JAVA_LONG_UNALIGNED, at);
    }
}
