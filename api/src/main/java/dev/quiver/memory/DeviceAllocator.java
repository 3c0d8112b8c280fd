package dev.quiver.memory;

import java.lang.foreign.MemorySegment;

/**
 * Where a {@link MemoryPool} gets the blocks it caches: by default the device's backend (the vendor call, such
 * as {@code cuMemAlloc} or {@code clCreateBuffer}), or an allocator an application brings with
 * {@link MemoryPool#useAllocator} (an existing {@code cuMemPool}, RMM through its C API, an arena of its own).
 *
 * <p><b>Pointers</b> are what arrays of the device hold: a host address for host-accessible memory, a
 * {@code CUdeviceptr} for CUDA, a {@code cl_mem} for OpenCL, and so on, exactly as the device's own
 * allocations are. For host-accessible devices the returned segment must have at least {@code byteSize} bytes.
 *
 * <p><b>Ownership.</b> What {@link #allocate} returns is owned by the pool until it passes it back to
 * {@link #free}, exactly once, after all work using it completed. The pool never frees a block through
 * another allocator than the one that made it, even after {@link MemoryPool#useAllocator} changed allocators.
 *
 * <p><b>Threading.</b> Both methods may be called from any thread, concurrently; they must not call back into
 * the pool: not {@link dev.quiver.Device#allocate(long)} nor {@code dev.quiver.plugin.Backends.of(device).allocate} of the same device,
 * which are the pool itself.
 */
public interface DeviceAllocator {

    /**
     * Allocates a block.
     *
     * @param byteSize  bytes, more than zero
     * @param alignment a power of two the block's start must be a multiple of
     * @return the block's pointer, never {@link MemorySegment#NULL}
     * @throws RuntimeException if the memory cannot be had; the pool frees its cached blocks and asks once more
     */
    MemorySegment allocate(long byteSize, long alignment);

    /**
     * Frees a block this allocator made.
     *
     * @param pointer what {@link #allocate} returned
     */
    void free(MemorySegment pointer);

    /** {@return a short name for statistics and messages, for example {@code "cuMemPool of the application"}} */
    default String name() {
        return getClass().getSimpleName();
    }
}
