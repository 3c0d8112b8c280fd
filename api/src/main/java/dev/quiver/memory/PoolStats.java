package dev.quiver.memory;

/**
 * What a {@link MemoryPool} holds at one moment. Immutable.
 *
 * @param bytesInUse      bytes of blocks handed out and not yet freed (block sizes: requests rounded up to their
 *                        size class)
 * @param bytesCached     bytes of freed blocks kept for reuse
 * @param bytesPending    bytes of blocks freed in stream order whose work has not completed yet
 * @param highWater       the most bytes ever held from the allocator at once (in use, cached and pending)
 * @param limit           the most bytes the pool may hold from its allocator, {@link Long#MAX_VALUE} for no limit
 * @param cacheLimit      the most bytes it keeps cached; 0 means every free goes straight back to the allocator
 * @param requests        allocations asked of the pool
 * @param hits            of those, the ones served from the cache
 * @param allocatorCalls  blocks asked of the allocator
 * @param trimmedBytes    bytes given back to the allocator from the cache, by {@link MemoryPool#trim()}, by the
 *                        cache limit and before retrying a failed allocation
 * @param allocator       the name of the allocator new blocks come from
 */
public record PoolStats(long bytesInUse, long bytesCached, long bytesPending, long highWater, long limit,
                        long cacheLimit, long requests, long hits, long allocatorCalls, long trimmedBytes,
                        String allocator) {

    /** {@return the bytes held from the allocator now: in use, cached and pending} */
    public long bytesHeld() {
        return bytesInUse + bytesCached + bytesPending;
    }
}
