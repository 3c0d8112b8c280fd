package dev.quiver.share.internal.arrays;

import dev.quiver.share.internal.memory.SharedRegion;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ProtocolException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The owner's record of the regions its receiver knows, by region id (docs/SHARING.md, "Regions"): a region's
 * descriptor travels the first time a batch uses it, later batches name its id. The record stays within the
 * bound the receiver announced (count and bytes) by retiring the least recently used regions the batch being
 * sent does not use; regions the owner closed are retired before the next batch or END.
 *
 * <p><b>Threading.</b> Not thread-safe: the session's sending thread uses it.
 */
public final class KnownRegions {
    private final int maxRegions;
    private final long maxBytes;
    private final LinkedHashMap<SharedRegion, Long> known = new LinkedHashMap<>(16, 0.75f, true);   // least recently used first
    private long bytes;
    private long nextId = 1;

    /**
     * What one batch's regions are on the wire.
     *
     * @param ids        per region of the batch, its id
     * @param introduced per region, whether this batch introduces it (its descriptor travels)
     * @param retired    ids to retire (REGION_CLOSED) before the batch, to make room for it
     */
    public record Assignment(long[] ids, boolean[] introduced, long[] retired) {}

    /**
     * Creates an empty record.
     *
     * @param maxRegions the most regions the receiver keeps, at least 1
     * @param maxBytes   the most bytes of those regions, at least 1
     */
    public KnownRegions(int maxRegions, long maxBytes) {
        this.maxRegions = maxRegions;
        this.maxBytes = maxBytes;
    }

    /** {@return the ids of regions closed since they were introduced, forgotten now: the receiver is to retire them} */
    public long[] retireClosed() {
        List<Long> closed = new ArrayList<>();
        for (Iterator<Map.Entry<SharedRegion, Long>> it = known.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<SharedRegion, Long> entry = it.next();
            if (entry.getKey().isClosed()) {
                closed.add(entry.getValue());
                bytes -= entry.getKey().size();
                it.remove();
            }
        }
        return closed.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Gives the regions of one batch their ids, introducing those the receiver does not know and retiring the
     * least recently used others where the bound needs room.
     *
     * @param regions the batch's regions, open, without repeats
     * @return the assignment
     * @throws ProtocolException with {@link ErrorCode#LIMIT}, naming the bound, if the batch's regions alone are past
     *                           the receiver's bound (nothing is recorded)
     */
    public Assignment assign(List<SharedRegion> regions) {
        Set<SharedRegion> needed = new HashSet<>(regions);
        int newCount = 0;
        long newBytes = 0;
        long neededBytes = 0;
        for (SharedRegion region : regions) {
            neededBytes += region.size();
            if (!known.containsKey(region)) {
                newCount++;
                newBytes += region.size();
            }
        }
        if (regions.size() > maxRegions) {
            throw new ProtocolException(ErrorCode.LIMIT, "one batch lies in " + regions.size() + " regions; the receiver's max_regions is "
                    + maxRegions);
        }
        if (neededBytes > maxBytes) {
            throw new ProtocolException(ErrorCode.LIMIT, "one batch lies in " + regions.size() + " region(s) of " + neededBytes
                    + " bytes; the receiver's max_mapped_bytes is " + maxBytes);
        }
        List<Long> retired = new ArrayList<>();
        for (Iterator<Map.Entry<SharedRegion, Long>> it = known.entrySet().iterator();
             it.hasNext() && (known.size() + newCount > maxRegions || bytes + newBytes > maxBytes); ) {
            Map.Entry<SharedRegion, Long> entry = it.next();
            if (!needed.contains(entry.getKey())) {
                retired.add(entry.getValue());
                bytes -= entry.getKey().size();
                it.remove();
            }
        }
        long[] ids = new long[regions.size()];
        boolean[] introduced = new boolean[regions.size()];
        for (int i = 0; i < ids.length; i++) {
            SharedRegion region = regions.get(i);
            Long id = known.get(region);
            if (id == null) {
                id = nextId++;
                known.put(region, id);
                bytes += region.size();
                introduced[i] = true;
            }
            ids[i] = id;
        }
        return new Assignment(ids, introduced, retired.stream().mapToLong(Long::longValue).toArray());
    }
}
