package dev.quiver.memory;

/**
 * The memory pool of one device: a caching allocator in front of the device's {@link DeviceAllocator}. Every
 * allocation Quiver makes on the device goes through it (see the {@linkplain dev.quiver.memory package
 * documentation}).
 *
 * <p><b>Size classes.</b> A request is rounded up to its size class (512-byte steps up to 4 KiB, then eight
 * classes per power of two, so a block wastes at most an eighth of its size) and served by a cached block of
 * that class, aligned at least as asked, if there is one. A freed block is cached, and blocks freed earlier go
 * back to the allocator to keep the cached bytes within {@link #cacheLimit()} (the block freed last is the
 * likeliest to be asked for next); a block larger than the cache limit goes straight back. A block freed in
 * stream order is cached once the work enqueued before its free completed.
 *
 * <p><b>Limit.</b> The pool holds at most {@link #limit()} bytes from its allocator, in use, cached and
 * pending together: a request beyond it first frees cached blocks, then fails with the device's
 * out-of-memory exception. A request the allocator refuses is retried once after the cache is trimmed.
 *
 * <p><b>Defaults.</b> No limit; a cache limit of an eighth of the device's memory, at most 1 GiB (256 MiB where
 * the device does not tell its size). The system properties {@code quiver.pool.cacheLimit} (bytes, or with
 * a {@code k}, {@code m} or {@code g} suffix; {@code 0} turns caching off) and {@code quiver.pool.limit} set
 * them for every pool at start.
 *
 * <p><b>Lifetime and threading.</b> A pool lives as long as its device, which is as long as the process. All
 * methods may be called from any thread, concurrently; statistics are a consistent snapshot. The memory a
 * pool caches is returned by {@link #trim()}; what is in use belongs to the buffers and arrays holding it,
 * which return it when closed. Not meant to be implemented outside Quiver.
 */
public interface MemoryPool {

    /** {@return the statistics at this moment} */
    PoolStats stats();

    /** {@return the most bytes this pool may hold from its allocator} */
    long limit();

    /**
     * Sets the most bytes this pool may hold from its allocator, in use, cached and pending together. Lowering
     * it below what the pool holds frees cached blocks; blocks in use stay, and later requests fail until
     * enough is freed.
     *
     * @param bytes the limit, {@link Long#MAX_VALUE} for none
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    void setLimit(long bytes);

    /** {@return the most bytes this pool keeps cached} */
    long cacheLimit();

    /**
     * Sets the most bytes this pool keeps cached; lowering it frees cached blocks at once.
     *
     * @param bytes the cache limit; 0 turns caching off
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    void setCacheLimit(long bytes);

    /**
     * Gives every cached block back to its allocator, and lets the device's backend release what else it keeps
     * for reuse (pooled events). Blocks in use and blocks pending in stream order stay.
     *
     * @return the bytes given back
     */
    long trim();

    /**
     * Makes new blocks come from {@code allocator}. Cached blocks of the previous allocator are given back to
     * it at once; blocks of it still in use go back to it when freed.
     *
     * @param allocator the allocator; {@code null} goes back to the device's own
     */
    void useAllocator(DeviceAllocator allocator);
}
