package dev.quiver.internal.abi;

/**
 * The checks of one validation of untrusted memory, against the {@link ReadableMemory} snapshot, asking
 * the kernel ({@code mincore(2)}, about a microsecond a call on some kernels) only about pages this
 * validation has not yet confirmed: the structs of one import usually share a few pages, and each is checked
 * more than once (its key, then its validation). What it remembers is what the kernel said during this
 * validation, so it catches memory unmapped before the validation began, as a fresh check would; memory
 * another thread unmaps while it runs stays out of reach, as it does for every check.
 *
 * <p>Not thread-safe: made for one validation, on the validating thread, and dropped after it.
 */
public final class CheckedReads implements ReadableRanges {
    /** Confirmed page ranges remembered; older ones are replaced in turn. */
    private static final int REMEMBERED = 4;
    /** How far past a range the kernel is asked about in the same call, where the snapshot maps it. */
    private static final long WINDOW = 64 * 1024;

    private final long[] starts = new long[REMEMBERED];
    private final long[] ends = new long[REMEMBERED];
    private int next;

    /**
     * How far a read may go. The map is taken again only when {@code address} lies in no readable mapping
     * the snapshot knows (or the kernel says a page is gone), not when the mapping ends before {@code max}:
     * reads of unknown length grow with {@link #extend}, which asks again at the end.
     *
     * @param address an address
     * @param max     the most bytes the caller would read
     * @return how many bytes from {@code address}, up to {@code max}, lie in readable, mapped memory without
     *         a gap; {@code max} where the system publishes no mappings
     */
    @Override
    public long readableBytes(long address, long max) {
        if (max <= 0) {
            return Math.max(max, 0);
        }
        HostMappings cached = ReadableMemory.snapshot();
        if (cached == null) {
            return max;
        }
        long found = cached.readableBytes(address, max);
        if (found > 0 && confirmed(cached, address, found)) {
            return found;
        }
        long now = ReadableMemory.fresh(address, max);
        if (now > 0) {
            remember(address, now);
        }
        return now;
    }

    /**
     * Whether a read of exactly {@code bytes} may go ahead: the map is taken again when the snapshot does not
     * cover them all (memory mapped or extended since) or the kernel says a page is gone.
     *
     * @param address an address
     * @param bytes   how many bytes the caller will read
     * @return true if they are readable and mapped, or nothing can be checked
     */
    @Override
    public boolean canRead(long address, long bytes) {
        if (bytes <= 0) {
            return true;
        }
        HostMappings cached = ReadableMemory.snapshot();
        if (cached == null) {
            return true;
        }
        if (cached.readableBytes(address, bytes) >= bytes && confirmed(cached, address, bytes)) {
            return true;
        }
        if (ReadableMemory.fresh(address, bytes) >= bytes) {
            remember(address, bytes);
            return true;
        }
        return false;
    }

    /** {@return whether every page of the range was confirmed, now or earlier in this validation} */
    private boolean confirmed(HostMappings snapshot, long address, long bytes) {
        long end = address + bytes;
        if (end < address) {
            return false;
        }
        for (int i = 0; i < REMEMBERED; i++) {
            if (starts[i] <= address && end <= ends[i] && ends[i] != 0) {
                return true;
            }
        }
        // ask about the pages after the range too, as far as the snapshot maps them and up to a window:
        // a producer's structs and buffers often lie close together, and a call costs about the same
        long window = Math.max(bytes, Math.min(WINDOW, snapshot.readableBytes(address, WINDOW)));
        if (window > bytes && MappedPages.allMapped(address, window)) {
            remember(address, window);
            return true;
        }
        if (!MappedPages.allMapped(address, bytes)) {
            return false;
        }
        remember(address, bytes);
        return true;
    }

    /** Remembers that the pages of the range are mapped, by the pages' bounds. */
    private void remember(long address, long bytes) {
        long page = MappedPages.pageSize();
        starts[next] = address & -page;
        ends[next] = (address + bytes + page - 1) & -page;
        next = (next + 1) % REMEMBERED;
    }
}
