package dev.quiver.spi.host;

import java.lang.foreign.MemorySegment;

/**
 * Where {@link HostDevice} gets host memory and how it moves bytes: the JDK's arenas in the API, the C
 * library in the CPU backend. Implementations make the restricted FFM calls the host device needs and must
 * be thread-safe: every method may be called from any thread, concurrently.
 */
public interface HostHeap {

    /** @return a short description for users, for example {@code "C library (memcpy from 64 KiB)"} */
    String description();

    /**
     * @param byteSize  bytes to allocate, at least 1
     * @param alignment a power of two
     * @return {@code byteSize} bytes of host memory, owned by the caller, who frees them once with {@link #free}
     * @throws dev.quiver.spi.DeviceException if the memory cannot be had
     */
    MemorySegment allocate(long byteSize, long alignment);

    /**
     * @param memory what {@link #allocate} of this heap returned (any size view of it), freed exactly once
     */
    void free(MemorySegment memory);

    /**
     * @param address  a host address, for example a buffer pointer of an imported array
     * @param byteSize how many bytes from it the caller will access
     * @return a segment of {@code byteSize} bytes at {@code address}; the caller vouches that they are live
     */
    MemorySegment view(MemorySegment address, long byteSize);

    /**
     * Copies all of {@code from} into {@code to}, as if through a temporary copy where the two overlap.
     *
     * @param from the bytes to read
     * @param to   where to write them, as many bytes as {@code from}
     */
    void copy(MemorySegment from, MemorySegment to);
}
