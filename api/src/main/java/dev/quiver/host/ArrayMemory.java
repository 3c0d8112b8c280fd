package dev.quiver.host;

import java.lang.foreign.MemorySegment;

/**
 * The fields and buffers of one array that {@link ArrayReader} reads: a C {@code ArrowArray} struct in
 * host-addressable memory ({@link ArrowArrayMemory}) or an array encoded on the Java heap
 * ({@link HostEncoder.Node}). Owns nothing; the memory it describes must stay alive while it is read.
 */
sealed interface ArrayMemory permits ArrowArrayMemory, HostEncoder.Node {
    /** @return {@code length} */
    long length();

    /** @return {@code offset} */
    long offset();

    /** @return {@code n_buffers} */
    int bufferCount();

    /**
     * @param i     buffer index, below {@link #bufferCount()}
     * @param bytes how many bytes the caller will read from the start of the buffer
     * @return the buffer, readable for at least {@code bytes} bytes, or {@link MemorySegment#NULL} if absent
     */
    MemorySegment buffer(int i, long bytes);

    /** @return {@code n_children} */
    int childCount();

    /**
     * @param k child index, below {@link #childCount()}
     * @return child {@code k}
     */
    ArrayMemory child(int k);

    /** @return the dictionary, or null */
    ArrayMemory dictionary();
}
