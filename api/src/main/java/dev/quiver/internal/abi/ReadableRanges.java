package dev.quiver.internal.abi;

/**
 * Something that answers "may these host bytes be read?" for a checked read, and on those answers grows
 * reads of unknown length (a string scanned for its terminator, metadata walked entry by entry) in steps:
 * {@value #FIRST_STEP} bytes first, then eight times what is known readable, up to the read's limit, so that
 * each step asks only about the pages it may read next. Implementations say who may use them from which
 * thread; {@link CheckedReads} is the one that asks the process's mappings and the kernel.
 */
public interface ReadableRanges {
    /** The first step of {@link #extend}: most names, formats and messages end within it. */
    long FIRST_STEP = 256;

    /**
     * @param address an address about to be read
     * @param max     how many bytes the caller would like to read
     * @return how many bytes from {@code address}, up to {@code max}, may be read without a gap
     */
    long readableBytes(long address, long max);

    /**
     * @param address an address about to be read
     * @param bytes   exactly how many bytes the caller will read
     * @return true if all of them may be read
     */
    boolean canRead(long address, long bytes);

    /**
     * Grows a read of unknown length by one step. Where what is known readable ends before the step, the
     * exact next byte is asked about too, which takes the map again where memory was mapped since.
     *
     * @param address the start of the read
     * @param have    how many bytes from {@code address} are already known readable (0 at first)
     * @param limit   the most bytes the read may take
     * @return how many bytes from {@code address} may be read now, at least {@code have}; {@code have} when
     *         nothing more may be read
     */
    default long extend(long address, long have, long limit) {
        if (have >= limit) {
            return have;
        }
        long step = Math.min(limit, Math.max(FIRST_STEP, have > Long.MAX_VALUE / 8 ? limit : have * 8));
        long now = readableBytes(address, step);
        if (now <= have && canRead(address, have + 1)) {
            now = readableBytes(address, step);
        }
        return Math.max(now, have);
    }

    /**
     * Finds the NUL that ends a string of unknown length, reading no byte that is not known readable and
     * growing the read with {@link #extend} as the scan reaches the end of what is.
     *
     * @param address the string, not 0
     * @param limit   the most bytes the scan may read, NUL included
     * @return the string's length in bytes if its NUL lies within the first {@code limit} bytes; else
     *         {@code -1 - readable}, where {@code readable} is how many bytes the scan could read ({@code 0}:
     *         the pointer is unreadable; {@code limit}: no NUL within the limit; between: the string runs into
     *         unreadable memory)
     */
    default long terminator(long address, long limit) {
        long readable = extend(address, 0, limit);
        long length = 0;
        while (true) {
            while (length < readable && RawMemory.getByte(address + length) != 0) {
                length++;
            }
            if (length < readable) {
                return length;
            }
            long more = extend(address, readable, limit);
            if (more <= readable) {
                return -1 - readable;
            }
            readable = more;
        }
    }
}
