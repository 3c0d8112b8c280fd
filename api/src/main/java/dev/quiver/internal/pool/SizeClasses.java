package dev.quiver.internal.pool;

/**
 * The sizes the pool rounds requests up to: 512-byte steps up to 4 KiB, then eight classes per power of two
 * (a block is at most an eighth larger than the request). Stateless.
 */
final class SizeClasses {
    static final long SMALLEST = 512;
    private static final long SMALL_LIMIT = 4096;
    private static final int CLASSES_PER_DOUBLING_LOG2 = 3;

    private SizeClasses() {}

    /**
     * @param byteSize a request, more than zero
     * @return its size class, at least {@code byteSize}; {@code byteSize} itself where rounding would overflow
     */
    static long of(long byteSize) {
        if (byteSize <= SMALL_LIMIT) {
            return roundUp(byteSize, SMALLEST);
        }
        long step = Long.highestOneBit(byteSize - 1) >>> CLASSES_PER_DOUBLING_LOG2;
        long rounded = roundUp(byteSize, step);
        return rounded < byteSize ? byteSize : rounded;
    }

    private static long roundUp(long value, long step) {
        return (value + step - 1) / step * step;
    }
}
