package dev.quiver.device.ffm;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live allocations of one device, so that freeing a pointer the device did not allocate, or freeing it
 * twice, fails with a clear error before it reaches the vendor API. Thread-safe.
 */
public final class Allocations {
    private final Set<Long> live = ConcurrentHashMap.newKeySet();

    /**
     * Checks a requested alignment against what the vendor allocator guarantees. That the size is not negative
     * and the alignment a power of two, every backend's callers have checked already (the API checks them for
     * all backends).
     *
     * @param alignment    the requested alignment, a power of two
     * @param maxAlignment the alignment the vendor allocator guarantees
     * @param vendor       the vendor API, for the message
     * @throws IllegalArgumentException if the alignment exceeds {@code maxAlignment}
     */
    public static void checkAlignment(long alignment, long maxAlignment, String vendor) {
        if (alignment > maxAlignment) {
            throw new IllegalArgumentException("alignment must be a power of two up to " + maxAlignment + " (what "
                    + vendor + " guarantees), not " + alignment);
        }
    }

    /**
     * @param pointer a pointer or handle just allocated
     */
    public void add(MemorySegment pointer) {
        live.add(pointer.address());
    }

    /**
     * Forgets a pointer that is about to be freed.
     *
     * @param pointer a pointer or handle
     * @param device  the device, for the message
     * @throws IllegalArgumentException if the device did not allocate it or it was already freed
     */
    public void remove(MemorySegment pointer, Object device) {
        if (!live.remove(pointer.address())) {
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address()) + " was not allocated by "
                    + device + " or was already freed");
        }
    }

    /** @return how many allocations are live */
    public int size() {
        return live.size();
    }
}
