package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The process-wide answer to "may these host bytes be read?", for pointers from an untrusted producer: a
 * cached {@link HostMappings} snapshot, taken again when an address misses it (memory mapped since), so a
 * hit costs a binary search and a miss costs one read of {@code /proc/self/maps}. Thread-safe: any thread
 * may ask; concurrent misses may each take a snapshot, and the newest published wins.
 *
 * <p>What it cannot see: memory unmapped after the snapshot that answered still looks readable until a
 * later miss refreshes it. A producer that unmaps memory it has just handed over is outside what a map
 * can catch.
 */
public final class ReadableMemory {
    private static volatile HostMappings current;

    private ReadableMemory() {}

    /** @return whether this system publishes its mappings, so that pointers can be checked at all */
    public static boolean available() {
        return mappings().isPresent();
    }

    /**
     * @param pointer an address
     * @param max     how many bytes the caller wants to read
     * @return how many bytes from {@code pointer}, up to {@code max}, lie in readable mappings without a
     *         gap; {@code max} where the system publishes no mappings (nothing can be checked)
     */
    public static long readableBytes(MemorySegment pointer, long max) {
        return readableBytes(pointer.address(), max);
    }

    /**
     * @param address an address
     * @param max     how many bytes the caller wants to read
     * @return how many bytes from {@code address}, up to {@code max}, lie in readable mappings without a
     *         gap; {@code max} where the system publishes no mappings (nothing can be checked)
     */
    public static long readableBytes(long address, long max) {
        if (max <= 0) {
            return Math.max(max, 0);
        }
        HostMappings cached = current;
        if (cached == null) {
            Optional<HostMappings> first = refresh();
            if (first.isEmpty()) {
                return max;
            }
            cached = first.get();
        }
        long found = cached.readableBytes(address, max);
        if (found >= max) {
            return found;
        }
        Optional<HostMappings> fresh = refresh();
        return fresh.isEmpty() ? max : fresh.get().readableBytes(address, max);
    }

    /** @return the cached snapshot, taking the first one if there is none yet */
    private static Optional<HostMappings> mappings() {
        HostMappings m = current;
        return m != null ? Optional.of(m) : refresh();
    }

    private static Optional<HostMappings> refresh() {
        Optional<HostMappings> snapshot = HostMappings.snapshot();
        snapshot.ifPresent(m -> current = m);
        return snapshot;
    }
}
