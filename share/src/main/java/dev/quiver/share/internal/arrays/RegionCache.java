package dev.quiver.share.internal.arrays;

import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.posix.SystemCallException;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ProtocolException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The receiver's mappings of the owner's regions, by region id (docs/SHARING.md, "Regions"): a region is mapped
 * once, when a batch introduces it with its descriptor, and stays mapped for later batches that name its id
 * until the owner retires it (REGION_CLOSED) or the connection ends; a retired region is unmapped as soon as no
 * received batch uses it. The regions known at once are bounded in count and bytes (the bound the receiver
 * announced in HELLO); ids of new regions must increase, so a retired id is never taken for another region.
 *
 * <p><b>Ownership.</b> The cache owns every mapping; each {@link Region} handed out by {@link #introduce} or
 * {@link #use} is one use, given back exactly once with {@link #release}. {@link #close()} retires every region.
 *
 * <p><b>Threading.</b> Any thread; every method holds the cache's lock (releases come from the threads that close
 * received arrays).
 */
public final class RegionCache implements AutoCloseable {
    private static final AtomicInteger MAPPED = new AtomicInteger();
    /** The {@code errno} of a mapping past the memory the system lets this process commit. */
    private static final int ENOMEM = 12;

    private final int maxRegions;
    private final long maxBytes;
    private final Map<Long, Region> known = new HashMap<>();
    private long knownBytes;
    private long highestId;

    /** One mapped region and the uses received batches make of it. */
    public static final class Region {
        private final long id;
        private final MemorySegment mapping;
        private int users;
        private boolean retired;

        private Region(long id, MemorySegment mapping) {
            this.id = id;
            this.mapping = mapping;
        }

        /** {@return the mapping, valid while this use is held} */
        public MemorySegment mapping() {
            return mapping;
        }

        /** {@return the region's id} */
        public long id() {
            return id;
        }
    }

    /**
     * Creates an empty cache.
     *
     * @param maxRegions the most regions known at once, at least 1
     * @param maxBytes   the most bytes of the regions known at once, at least 1
     */
    public RegionCache(int maxRegions, long maxBytes) {
        this.maxRegions = maxRegions;
        this.maxBytes = maxBytes;
    }

    /** {@return how many regions of other processes this process has mapped} */
    public static int mappedEverywhere() {
        return MAPPED.get();
    }

    /**
     * Maps a region a batch introduces and takes one use of it.
     *
     * @param id   its id, more than every id introduced before
     * @param fd   its descriptor, checked by the caller (sealed, {@code fstat} size); the caller still closes it
     * @param size its checked size
     * @param at   names the handle, for errors ({@code "BATCH 3: handles[0]"}); called only for an error
     * @return the use, to {@link #release}
     * @throws ProtocolException if the id does not increase, or the region would take the cache past its bound, or
     *                           it cannot be mapped ({@link ErrorCode#LIMIT} for {@code ENOMEM}, else
     *                           {@link ErrorCode#PROTOCOL}; both name the handle and the {@code errno})
     */
    public synchronized Region introduce(long id, int fd, long size, Supplier<String> at) {
        if (Long.compareUnsigned(id, highestId) <= 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at.get() + " introduces region " + Long.toUnsignedString(id)
                    + ", an id used before (ids of new regions increase; the last was " + highestId + ")");
        }
        if (known.size() >= maxRegions || size > maxBytes - knownBytes) {
            throw new ProtocolException(ErrorCode.LIMIT, at.get() + " introduces region " + id + " of " + size + " bytes while "
                    + known.size() + " regions of " + knownBytes + " bytes are known; this receiver keeps at most "
                    + maxRegions + " regions of " + maxBytes + " bytes (the owner retires regions to make room)");
        }
        Region region = new Region(id, map(fd, size, at));
        MAPPED.incrementAndGet();
        highestId = id;
        known.put(id, region);
        knownBytes += size;
        region.users++;
        return region;
    }

    /** Maps a region; a failure (ENOMEM past the system's commit limit, a file system that cannot map so) refuses the batch. */
    private static MemorySegment map(int fd, long size, Supplier<String> at) {
        try {
            return Memfd.mapPrivate(fd, size);
        } catch (SystemCallException e) {
            throw new ProtocolException(e.errno() == ENOMEM ? ErrorCode.LIMIT : ErrorCode.PROTOCOL, at.get() + ": this receiver cannot map "
                    + "the region's " + size + " bytes: " + e.getMessage());
        }
    }

    /**
     * Takes one use of a region introduced before.
     *
     * @param id   its id
     * @param size the size the batch says it has
     * @param at   names the handle, for errors; called only for an error
     * @return the use, to {@link #release}
     * @throws ProtocolException if no region of that id is known (never introduced, or retired), or its size is
     *                           another
     */
    public synchronized Region use(long id, long size, Supplier<String> at) {
        Region region = known.get(id);
        if (region == null) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at.get() + " names region " + Long.toUnsignedString(id) + ", which "
                    + (Long.compareUnsigned(id, highestId) <= 0 ? "the owner retired" : "was never introduced (its first use carries the descriptor)"));
        }
        if (size != region.mapping.byteSize()) {
            throw new ProtocolException(ErrorCode.LIMIT, at.get() + " says " + Long.toUnsignedString(size) + " bytes for region " + id
                    + "; the region has " + region.mapping.byteSize());
        }
        region.users++;
        return region;
    }

    /**
     * Gives back one use; a retired region that no batch uses any more is unmapped.
     *
     * @param region a use taken from this cache, given back once
     */
    public synchronized void release(Region region) {
        region.users--;
        unmapIfIdle(region);
    }

    /**
     * Retires a region: it is forgotten now and unmapped once no batch uses it.
     *
     * @param id the id REGION_CLOSED names
     * @throws ProtocolException if no region of that id is known
     */
    public synchronized void retire(long id) {
        Region region = known.remove(id);
        if (region == null) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "REGION_CLOSED names region " + Long.toUnsignedString(id)
                    + ", which is not known (never introduced, or retired already)");
        }
        knownBytes -= region.mapping.byteSize();
        region.retired = true;
        unmapIfIdle(region);
    }

    /** {@return how many regions are known now} */
    public synchronized int known() {
        return known.size();
    }

    /** Retires every region: the idle ones are unmapped now, the others when their last batch is released. */
    @Override
    public synchronized void close() {
        for (Long id : new ArrayList<>(known.keySet())) {
            retire(id);
        }
    }

    private void unmapIfIdle(Region region) {
        if (region.retired && region.users == 0) {
            Memfd.unmapPrivate(region.mapping);
            MAPPED.decrementAndGet();
        }
    }

    /**
     * Gives back every use in {@code regions}.
     *
     * @param regions uses taken from this cache
     */
    public void releaseAll(List<Region> regions) {
        for (Region region : regions) {
            release(region);
        }
    }
}
