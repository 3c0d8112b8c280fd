package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The process-wide snapshot of readable host memory that {@link CheckedReads} answers from, for pointers
 * from an untrusted producer: a cached {@link HostMappings}, taken again when an address misses it (memory
 * mapped since), so a hit costs a binary search and a miss costs one read of {@code /proc/self/maps}.
 * Thread-safe: any thread may ask; concurrent misses may each take a snapshot, and the newest published
 * wins.
 *
 * <p>A hit is confirmed with the kernel ({@code mincore(2)}, which never touches the memory), so memory
 * unmapped since the snapshot is caught and the map read again. What stays out of
 * reach: a readable mapping turned {@code PROT_NONE} by {@code mprotect} since the snapshot (it is still
 * mapped, so the kernel cannot tell), and memory unmapped by another thread between the check and the read.
 */
public final class ReadableMemory {
    private static volatile HostMappings current;

    private ReadableMemory() {}

    /** {@return whether this system publishes its mappings, so that pointers can be checked at all} */
    public static boolean available() {
        return snapshot() != null;
    }

    /**
     * A one-off {@link CheckedReads#readableBytes} (a validation that checks several pointers makes one
     * {@link CheckedReads} for all of them).
     *
     * @param pointer an address
     * @param max     the most bytes the caller would read
     * @return how many bytes from {@code pointer}, up to {@code max}, lie in readable, mapped memory without a
     *         gap; {@code max} where the system publishes no mappings (nothing can be checked)
     */
    public static long readableBytes(MemorySegment pointer, long max) {
        return new CheckedReads().readableBytes(pointer.address(), max);
    }

    /** {@return what a new snapshot and the kernel say may be read from {@code address}, up to {@code max}} */
    static long fresh(long address, long max) {
        Optional<HostMappings> snapshot = refresh();
        if (snapshot.isEmpty()) {
            return max;
        }
        long now = snapshot.get().readableBytes(address, max);
        return now > 0 && MappedPages.allMapped(address, now) ? now : 0;
    }

    /** {@return the cached snapshot, taking the first one if there is none yet; null where there are no mappings to read} */
    static HostMappings snapshot() {
        HostMappings cached = current;
        return cached != null ? cached : refresh().orElse(null);
    }

    private static Optional<HostMappings> refresh() {
        Optional<HostMappings> snapshot = HostMappings.snapshot();
        snapshot.ifPresent(m -> current = m);
        return snapshot;
    }
}
