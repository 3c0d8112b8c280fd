package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

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
        return impliedSize(array.address(), field, i, readHost);
    }

    /**
     * {@link #impliedSize(MemorySegment, Field, int, boolean)} for the ArrowArray at a raw address.
     *
     * @param array    the address of a live, validated ArrowArray of {@code field}
     * @param field    its field
     * @param i        a buffer index below its {@code n_buffers}
     * @param readHost whether the buffers are host memory that may be read now
     * @return the implied size in bytes, 0 for an absent buffer, or -1 if unknown
     */
    public static long impliedSize(long array, Field field, int i, boolean readHost) {
        if (buffer(array, i) == 0) {
            return 0;
        }
        long slots;
        try {
            slots = Math.addExact(RawMemory.getLong(array + ArrowArrayLayout.OFFSET), RawMemory.getLong(array + ArrowArrayLayout.LENGTH));
            BufferLayout layout = BufferLayout.of(field.type());
            int fixed = layout.buffers().size();
            if (i < fixed) {
                return fixedBuffer(array, field, layout, i, slots, readHost);
            }
            long nBuffers = RawMemory.getLong(array + ArrowArrayLayout.N_BUFFERS);
            if (i == nBuffers - 1) {
                return Math.multiplyExact(nBuffers - fixed - 1, 8L);
            }
            if (!readHost) {
                return -1;
            }
            return RawMemory.getLong(buffer(array, (int) (nBuffers - 1)) + (i - fixed) * 8L);
        } catch (ArithmeticException overflow) {
            return -1;
        }
    }

    /**
     * @param array the address of a live ArrowArray with more than {@code i} buffers
     * @param i     a buffer index
     * @return the address buffer {@code i} points to, 0 if absent
     */
    public static long buffer(long array, int i) {
        return RawMemory.getAddress(RawMemory.getAddress(array + ArrowArrayLayout.BUFFERS) + (long) i * Long.BYTES);
    }

    private static long fixedBuffer(long array, Field field, BufferLayout layout, int i, long slots, boolean readHost) {
        BufferLayout.Buffer buffer = layout.buffers().get(i);
        boolean listView = field.dictionary() == null
                && (field.type() instanceof ArrowType.ListView || field.type() instanceof ArrowType.LargeListView);
        return switch (buffer.kind()) {
            case DATA -> readHost ? lastOffset(array, i - 1, slots, layout.buffers().get(i - 1).bitWidth()) : -1;
            case OFFSETS -> listView ? Math.multiplyExact(slots, buffer.bitWidth() / 8) : buffer.bytesFor(slots);
            case VALIDITY, BITS, FIXED, SIZES, TYPE_IDS, UNION_OFFSETS, VIEWS -> buffer.bytesFor(slots);
        };
    }

    private static long lastOffset(long array, int offsetsIndex, long slots, int bitWidth) {
        long offsets = buffer(array, offsetsIndex);
        if (offsets == 0) {
            return 0;   // only an empty array may omit its offsets: it addresses no data
        }
        long at = offsets + Math.multiplyExact(slots, bitWidth / 8);
        return bitWidth == 32 ? RawMemory.getInt(at) : RawMemory.getLong(at);
    }
}
