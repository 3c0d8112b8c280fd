package dev.quiver.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Bulk copies of Java primitive arrays into new heap byte arrays laid out the way Arrow stores values:
 * little-endian, packed. One {@link MemorySegment#copy(Object, int, MemorySegment, ValueLayout, long, int)}
 * per array, no boxing. Stateless; the source array is read during the call only.
 */
final class LittleEndian {
    /** Arrow's layouts of 16-, 32- and 64-bit integers and of IEEE 754 floats: little-endian, unaligned. */
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}

    /** @return the first {@code count} bytes of {@code values} in a new heap segment */
    static MemorySegment copyOf(byte[] values, int count) {
        return copy(values, ValueLayout.JAVA_BYTE, count);
    }

    /** @return the first {@code count} values, little-endian, in a new heap segment */
    static MemorySegment copyOf(short[] values, int count) {
        return copy(values, SHORT, count);
    }

    /** @return the first {@code count} values, little-endian, in a new heap segment */
    static MemorySegment copyOf(int[] values, int count) {
        return copy(values, INT, count);
    }

    /** @return the first {@code count} values, little-endian, in a new heap segment */
    static MemorySegment copyOf(long[] values, int count) {
        return copy(values, LONG, count);
    }

    /** @return the first {@code count} values, little-endian IEEE 754, in a new heap segment */
    static MemorySegment copyOf(float[] values, int count) {
        return copy(values, FLOAT, count);
    }

    /** @return the first {@code count} values, little-endian IEEE 754, in a new heap segment */
    static MemorySegment copyOf(double[] values, int count) {
        return copy(values, DOUBLE, count);
    }

    private static MemorySegment copy(Object array, ValueLayout layout, int count) {
        MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(count * layout.byteSize())]);
        MemorySegment.copy(array, 0, out, layout, 0, count);
        return out;
    }
}
