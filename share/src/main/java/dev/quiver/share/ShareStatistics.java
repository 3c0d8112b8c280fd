package dev.quiver.share;

import dev.quiver.share.internal.arrays.RegionCache;
import dev.quiver.share.internal.memory.SharedRegions;

/**
 * What sharing holds in this process at this moment, for monitoring and leak checks: each count returns to
 * zero once everything shared is released. Any thread.
 */
public final class ShareStatistics {
    private ShareStatistics() {}

    /** {@return the memory files this process owns and has mapped (arenas, pool blocks, copies made for a handoff)} */
    public static int openRegions() {
        return SharedRegions.open();
    }

    /**
     * {@return the memory files of other processes this process has mapped: those received arrays use, and those
     * an open {@link ShareClient} keeps for later batches}
     */
    public static int mappedRegions() {
        return RegionCache.mappedEverywhere();
    }

    /** {@return the batches this process sent and whose receivers have not released them yet} */
    public static int outstandingBatches() {
        return ShareSession.outstandingEverywhere();
    }
}
