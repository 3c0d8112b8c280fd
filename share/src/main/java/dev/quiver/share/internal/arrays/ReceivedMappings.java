package dev.quiver.share.internal.arrays;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The regions one received batch uses, with the action that tells the owner the batch is released. Closing
 * gives each use back to the {@link RegionCache} (which unmaps a retired region no batch uses any more) and
 * runs the action, once, on the closing thread (the release of the array they are in).
 */
public final class ReceivedMappings implements AutoCloseable {
    private final RegionCache cache;
    private final List<RegionCache.Region> regions;
    private final Runnable released;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Takes over uses of regions.
     *
     * @param cache    where the uses came from
     * @param regions  the uses, owned by this object from now on
     * @param released runs after the uses are given back; must not throw
     */
    public ReceivedMappings(RegionCache cache, List<RegionCache.Region> regions, Runnable released) {
        this.cache = cache;
        this.regions = List.copyOf(regions);
        this.released = released;
    }

    /** Gives back every use and runs the release action; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            cache.releaseAll(regions);
            released.run();
        }
    }
}
