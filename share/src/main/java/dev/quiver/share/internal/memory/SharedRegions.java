package dev.quiver.share.internal.memory;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The open {@link SharedRegion}s of this process by address, so that an exporter finds whether a buffer lies in
 * shareable memory. Any thread.
 */
public final class SharedRegions {
    private static final ConcurrentSkipListMap<Long, SharedRegion> BY_BASE = new ConcurrentSkipListMap<>();

    private SharedRegions() {}

    static void add(SharedRegion region) {
        BY_BASE.put(region.base(), region);
    }

    static void remove(SharedRegion region) {
        BY_BASE.remove(region.base(), region);
    }

    /**
     * {@return the region that holds all of {@code [address, address + length)}, if one does}
     * @param address a host address
     * @param length  bytes
     */
    public static Optional<SharedRegion> find(long address, long length) {
        Map.Entry<Long, SharedRegion> entry = BY_BASE.floorEntry(address);
        return entry != null && entry.getValue().contains(address, length) ? Optional.of(entry.getValue()) : Optional.empty();
    }

    /** {@return how many regions are open} */
    public static int open() {
        return BY_BASE.size();
    }
}
