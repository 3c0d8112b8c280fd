package dev.quiver.internal.backend;

/**
 * The argument checks that need nothing but the arguments: sizes, alignments, offsets and the ranges they
 * make. Each failure is an {@link IllegalArgumentException} naming the argument. Stateless; thread-safe.
 */
final class DeviceArguments {
    private DeviceArguments() {}

    /**
     * @param name  the argument's name, for the message
     * @param value its value
     * @throws IllegalArgumentException if it is negative
     */
    static void nonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " is negative: " + value);
        }
    }

    /**
     * @param alignment a requested alignment
     * @throws IllegalArgumentException unless it is a power of two
     */
    static void powerOfTwo(long alignment) {
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two, not " + alignment);
        }
    }

    /**
     * @param offsetName the offset argument's name, for the message
     * @param offset     a byte offset
     * @param bytes      a non-negative byte count
     * @throws IllegalArgumentException if the offset is negative or {@code offset + bytes} overflows
     */
    static void range(String offsetName, long offset, long bytes) {
        nonNegative(offsetName, offset);
        if (offset > Long.MAX_VALUE - bytes) {
            throw new IllegalArgumentException(offsetName + " + " + bytes + " bytes overflows: " + offsetName + " is " + offset);
        }
    }
}
