package dev.quiver.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Java primitive arrays as heap segments laid out the way Arrow stores values, little-endian and packed:
 * {@code copyOf} makes a new array with one bulk
 * {@link MemorySegment#copy(Object, int, MemorySegment, ValueLayout, long, int)} and keeps no reference to
 * the source; {@code wrap} returns a segment over the array itself where the platform is little-endian (a
 * copy elsewhere). No boxing. Stateless.
 */
final class LittleEndian {
    /** Arrow's layouts of 16-, 32- and 64-bit integers and of IEEE 754 floats: little-endian, unaligned. */
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final boolean NATIVE_IS_LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private LittleEndian() {}

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

    /** @return the values in Arrow's layout: the array itself on a little-endian platform, a copy elsewhere */
    static MemorySegment wrap(short[] values) {
        return NATIVE_IS_LITTLE ? MemorySegment.ofArray(values) : copyOf(values, values.length);
    }

    /** @return the values in Arrow's layout: the array itself on a little-endian platform, a copy elsewhere */
    static MemorySegment wrap(int[] values) {
        return NATIVE_IS_LITTLE ? MemorySegment.ofArray(values) : copyOf(values, values.length);
    }

    /** @return the values in Arrow's layout: the array itself on a little-endian platform, a copy elsewhere */
    static MemorySegment wrap(long[] values) {
        return NATIVE_IS_LITTLE ? MemorySegment.ofArray(values) : copyOf(values, values.length);
    }

    /** @return the values in Arrow's layout: the array itself on a little-endian platform, a copy elsewhere */
    static MemorySegment wrap(float[] values) {
        return NATIVE_IS_LITTLE ? MemorySegment.ofArray(values) : copyOf(values, values.length);
    }

    /** @return the values in Arrow's layout: the array itself on a little-endian platform, a copy elsewhere */
    static MemorySegment wrap(double[] values) {
        return NATIVE_IS_LITTLE ? MemorySegment.ofArray(values) : copyOf(values, values.length);
    }

    private static MemorySegment copy(Object array, ValueLayout layout, int count) {
        MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(count * layout.byteSize())]);
        MemorySegment.copy(array, 0, out, layout, 0, count);
        return out;
    }
}
