package dev.quiver.internal.tensor;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.OptionalInt;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The shape and byte strides of a dense tensor, relative to its first element: what decides whether its
 * elements can be taken as one contiguous, C-ordered Arrow buffer, and how to gather them when they
 * cannot. Immutable; the arrays are copied.
 */
public final class StridedView {
    private final int elementSize;
    private final long[] shape;
    private final long[] byteStrides;

    private StridedView(int elementSize, long[] shape, long[] byteStrides) {
        this.elementSize = elementSize;
        this.shape = shape.clone();
        this.byteStrides = byteStrides == null ? contiguousStrides(elementSize, shape) : byteStrides.clone();
    }

    /**
     * @param elementSize bytes per element
     * @param shape       extents, each {@code >= 0} (the caller checked)
     * @param byteStrides strides in bytes, one per dimension, or null for C-contiguous
     * @return the view
     */
    public static StridedView of(int elementSize, long[] shape, long[] byteStrides) {
        if (byteStrides != null && byteStrides.length != shape.length) {
            throw new IllegalArgumentException(byteStrides.length + " strides for " + shape.length + " dimensions");
        }
        return new StridedView(elementSize, shape, byteStrides);
    }

    /**
     * @param elementSize bytes per element
     * @param shape       extents
     * @return the C-contiguous strides in elements (saturating at {@code Long.MAX_VALUE} for shapes whose
     *         element count overflows; {@link #elementCount()} rejects those)
     */
    public static long[] contiguousElementStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long stride = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = stride;
            stride = saturatingMultiply(stride, Math.max(shape[i], 1));
        }
        return strides;
    }

    private static long[] contiguousStrides(int elementSize, long[] shape) {
        long[] strides = contiguousElementStrides(shape);
        for (int i = 0; i < strides.length; i++) {
            strides[i] = saturatingMultiply(strides[i], elementSize);
        }
        return strides;
    }

    private static long saturatingMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high == 0 && low >= 0 ? low : Long.MAX_VALUE;
    }

    /** @return the extents, a copy */
    public long[] shape() {
        return shape.clone();
    }

    /** @return bytes per element */
    public int elementSize() {
        return elementSize;
    }

    /**
     * @return the number of elements
     * @throws ArithmeticException if it, or its size in bytes, overflows a {@code long}
     */
    public long elementCount() {
        long count = 1;
        for (long extent : shape) {
            count = Math.multiplyExact(count, extent);
        }
        Math.multiplyExact(count, (long) elementSize);
        return count;
    }

    /** @return true if the view has no elements (an extent is 0) */
    public boolean isEmpty() {
        return Arrays.stream(shape).anyMatch(extent -> extent == 0);
    }

    /**
     * @return the first dimension whose stride breaks C-contiguity, ignoring dimensions of extent 1 (their
     *         stride is never used) and every dimension of an empty view; empty if contiguous
     */
    OptionalInt firstNonContiguousDimension() {
        if (isEmpty()) {
            return OptionalInt.empty();
        }
        long expected = elementSize;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] != 1 && byteStrides[i] != expected) {
                return OptionalInt.of(i);
            }
            expected = saturatingMultiply(expected, shape[i]);
        }
        return OptionalInt.empty();
    }

    /** @return the stride in bytes of dimension {@code i} */
    long byteStride(int i) {
        return byteStrides[i];
    }

    /**
     * @return the lowest byte offset, relative to the first element, that an element starts at ({@code <= 0}:
     *         negative strides reach below the first element)
     * @throws ArithmeticException if the extent overflows
     */
    public long spanStart() {
        long start = 0;
        if (isEmpty()) {
            return 0;
        }
        for (int i = 0; i < shape.length; i++) {
            long reach = Math.multiplyExact(shape[i] - 1, byteStrides[i]);
            if (reach < 0) {
                start = Math.addExact(start, reach);
            }
        }
        return start;
    }

    /**
     * @return one past the highest byte, relative to the first element, that an element occupies
     * @throws ArithmeticException if the extent overflows
     */
    public long spanEnd() {
        if (isEmpty()) {
            return 0;
        }
        long end = elementSize;
        for (int i = 0; i < shape.length; i++) {
            long reach = Math.multiplyExact(shape[i] - 1, byteStrides[i]);
            if (reach > 0) {
                end = Math.addExact(end, reach);
            }
        }
        return end;
    }

    /**
     * Copies every element, in C order, into {@code out}.
     *
     * @param span host memory holding bytes {@link #spanStart()} to {@link #spanEnd()} of the tensor
     * @param out  host memory of {@code elementCount() * elementSize()} bytes
     */
    public void gather(MemorySegment span, MemorySegment out) {
        long count = elementCount();
        if (count == 0) {
            return;
        }
        long[] index = new long[shape.length];
        long at = -spanStart();
        for (long n = 0; n < count; n++) {
            MemorySegment.copy(span, JAVA_BYTE, at, out, JAVA_BYTE, n * elementSize, elementSize);
            for (int d = shape.length - 1; d >= 0; d--) {
                if (++index[d] < shape[d]) {
                    at += byteStrides[d];
                    break;
                }
                at -= (shape[d] - 1) * byteStrides[d];
                index[d] = 0;
            }
        }
    }
}
