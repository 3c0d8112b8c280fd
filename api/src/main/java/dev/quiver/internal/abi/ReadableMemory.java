package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The process-wide answer to "may these host bytes be read?", for pointers from an untrusted producer: a
 * cached {@link HostMappings} snapshot, taken again when an address misses it (memory mapped since), so a
 * hit costs a binary search and a miss costs one read of {@code /proc/self/maps}. Thread-safe: any thread
 * may ask; concurrent misses may each take a snapshot, and the newest published wins.
 *
 * <p>A hit is confirmed with the kernel ({@code mincore(2)}, one system call per range, which never touches
 * the memory), so memory unmapped since the snapshot is caught and the map read again. What stays out of
 * reach: a readable mapping turned {@code PROT_NONE} by {@code mprotect} since the snapshot (it is still
 * mapped, so the kernel cannot tell), and memory unmapped by another thread between the check and the read.
 */
public final class ReadableMemory {
    /** The first step of {@link #extend}: most names, formats and messages end within it. */
    public static final long FIRST_STEP = 256;
    private static volatile HostMappings current;

    private ReadableMemory() {}

    /** @return whether this system publishes its mappings, so that pointers can be checked at all */
    public static boolean available() {
        return mappings().isPresent();
    }

    /**
     * How far a read may go, for reads whose length is not known in advance (a NUL-terminated string): the
     * map is taken again only when {@code pointer} lies in no readable mapping it knows, not when the mapping
     * it lies in ends before {@code max}.
     *
     * @param pointer an address
     * @param max     the most bytes the caller would read
     * @return how many bytes from {@code pointer}, up to {@code max}, lie in readable, mapped memory without a
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
        if (found > 0 && MappedPages.allMapped(address, found)) {
            return found;
        }
        // not in the snapshot, or unmapped since: read the map again
        return fresh(address, max);
    }

    /**
     * Grows a read of unknown length (a string scanned for its terminator, metadata walked entry by entry) in
     * steps, so that each step asks the kernel only about the pages it may read next: the first step asks for
     * {@value #FIRST_STEP} bytes, each later one for eight times what is known readable, up to {@code limit}.
     * Where the known mapping ends before the step, the map is read again (memory mapped since may go on).
     *
     * @param address the start of the read
     * @param have    how many bytes from {@code address} are already known readable (0 at first)
     * @param limit   the most bytes the read may take
     * @return how many bytes from {@code address} may be read now, at least {@code have}; {@code have} when
     *         nothing more may be read
     */
    public static long extend(long address, long have, long limit) {
        if (have >= limit) {
            return have;
        }
        long step = nextStep(have, limit);
        long now = readableBytes(address, step);
        if (now <= have && isReadable(address, have + 1)) {
            now = readableBytes(address, step);
        }
        return Math.max(now, have);
    }

    /**
     * @param have  how many bytes are known readable
     * @param limit the most bytes the read may take
     * @return how far the next step of a growing read asks: {@value #FIRST_STEP} bytes, then eight times
     *         {@code have}, never more than {@code limit}
     */
    public static long nextStep(long have, long limit) {
        return Math.min(limit, Math.max(FIRST_STEP, have > Long.MAX_VALUE / 8 ? limit : have * 8));
    }

    /**
     * {@link #isReadable(long, long)} for a segment's address.
     *
     * @param pointer an address
     * @param bytes   how many bytes the caller will read
     * @return true if they are readable and mapped, or nothing can be checked
     */
    public static boolean isReadable(MemorySegment pointer, long bytes) {
        return isReadable(pointer.address(), bytes);
    }

    /**
     * Whether a read of exactly {@code bytes} may go ahead: the map is taken again when the snapshot does not
     * cover them all (memory mapped or extended since) or the kernel says a page is gone.
     *
     * @param address an address
     * @param bytes   how many bytes the caller will read
     * @return true if {@code [address, address + bytes)} is readable and mapped, or nothing can be checked
     */
    public static boolean isReadable(long address, long bytes) {
        if (bytes <= 0) {
            return true;
        }
        HostMappings cached = current;
        if (cached == null) {
            Optional<HostMappings> first = refresh();
            if (first.isEmpty()) {
                return true;
            }
            cached = first.get();
        }
        if (cached.readableBytes(address, bytes) >= bytes && MappedPages.allMapped(address, bytes)) {
            return true;
        }
        return fresh(address, bytes) >= bytes;
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

    /** {@return how many bytes from {@code address}, up to {@code max}, the cached snapshot maps readable; 0 without one} */
    static long snapshotBytes(long address, long max) {
        HostMappings cached = current;
        return cached == null ? 0 : cached.readableBytes(address, max);
    }

    /** {@return the cached snapshot, taking the first one if there is none yet; null where there are no mappings to read} */
    static HostMappings snapshot() {
        HostMappings cached = current;
        return cached != null ? cached : refresh().orElse(null);
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
