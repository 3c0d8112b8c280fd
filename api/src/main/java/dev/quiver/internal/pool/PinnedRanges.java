package dev.quiver.internal.pool;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The host memory pinned for some device that Quiver holds, by address, so that a copy can tell memory it
 * may hand to the driver as it is from memory it should stage. Thread-safe; lookups take no lock.
 */
public final class PinnedRanges {
    private static final ConcurrentSkipListMap<Long, Long> ENDS = new ConcurrentSkipListMap<>();

    private PinnedRanges() {}

    /** @param memory pinned memory just allocated */
    public static void add(MemorySegment memory) {
        ENDS.put(memory.address(), memory.address() + memory.byteSize());
    }

    /** @param memory pinned memory about to be freed */
    public static void remove(MemorySegment memory) {
        ENDS.remove(memory.address());
    }

    /**
     * @param memory host memory
     * @return true if all of it lies in one pinned allocation
     */
    public static boolean contains(MemorySegment memory) {
        Map.Entry<Long, Long> below = ENDS.floorEntry(memory.address());
        return below != null && memory.address() + memory.byteSize() <= below.getValue();
    }
}
