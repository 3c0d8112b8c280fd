package dev.quiver.share.internal.arrays;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.share.internal.memory.SharedRegion;
import dev.quiver.share.internal.memory.SharedRegions;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.HandleKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One array made ready to send: the regions its buffers lie in, its nodes with each buffer's place (a region
 * index, an offset and a length), and what keeps its memory alive until the receiver releases it (a reference
 * on the array when its buffers already lie in shared regions, otherwise the region it was copied into). The
 * BATCH itself is made once the regions have their ids ({@link KnownRegions}).
 *
 * <p><b>Ownership.</b> The caller owns {@link #hold()} and closes it exactly once, when the receiver released
 * the batch or is gone (or the send failed). The descriptors belong to the regions; they are not closed by the
 * caller.
 *
 * @param regions the regions, in handle order, without repeats
 * @param nodes   the nodes, whose buffers name indexes into {@code regions}
 * @param copied  whether the array was copied for this handoff
 * @param hold    what keeps the memory alive
 */
public record PlannedBatch(List<SharedRegion> regions, List<BatchMessage.Node> nodes, boolean copied, AutoCloseable hold) {
    /** Copies the lists. */
    public PlannedBatch {
        regions = List.copyOf(regions);
        nodes = List.copyOf(nodes);
    }

    /**
     * {@return the BATCH of this plan}
     * @param batchId    the batch's id
     * @param assignment the ids of its regions, and which it introduces
     */
    public BatchMessage message(long batchId, KnownRegions.Assignment assignment) {
        List<BatchMessage.Handle> handles = new ArrayList<>(regions.size());
        for (int i = 0; i < regions.size(); i++) {
            handles.add(new BatchMessage.Handle(HandleKind.MEMFD, regions.get(i).size(), assignment.ids()[i], assignment.introduced()[i], new byte[0]));
        }
        return new BatchMessage(batchId, copied, handles, 0, new byte[0], nodes);
    }

    /**
     * {@return the descriptors that travel with the BATCH: those of the regions it introduces, in handle order}
     * @param assignment the ids of its regions, and which it introduces
     */
    public int[] fds(KnownRegions.Assignment assignment) {
        int[] fds = new int[regions.size()];
        int count = 0;
        for (int i = 0; i < regions.size(); i++) {
            if (assignment.introduced()[i]) {
                fds[count++] = regions.get(i).fd();
            }
        }
        return java.util.Arrays.copyOf(fds, count);
    }

    /** An array spread over more regions than this is copied into one rather than sent as that many descriptors. */
    private static final int MAX_SHARED_HANDLES = 64;

    /**
     * Plans the handoff of {@code array}: zero-copy if every buffer lies in a {@link SharedRegion} of this
     * process, otherwise a copy into a new region. A device array is copied to the host first.
     *
     * @param array   the array, open; the caller keeps its own reference
     * @return the plan
     */
    public static PlannedBatch of(DeviceArray array) {
        if (array.deviceType() != dev.quiver.DeviceType.CPU) {
            try (DeviceArray host = Copies.toHost(array)) {
                return copied(HostNodes.of(host));
            }
        }
        array.syncEvent().ifPresent(dev.quiver.SyncEvent::waitOnHost);
        List<HostNode> nodes = HostNodes.of(array);
        PlannedBatch shared = shared(array, nodes);
        return shared != null ? shared : copied(nodes);
    }

    private static PlannedBatch shared(DeviceArray array, List<HostNode> nodes) {
        Map<SharedRegion, Integer> regions = new LinkedHashMap<>();
        boolean placeAnywhere = false;
        List<List<long[]>> places = new ArrayList<>();   // per node, per buffer: {region index or -1, address, size}
        for (HostNode node : nodes) {
            List<long[]> buffers = new ArrayList<>();
            for (int i = 0; i < node.addresses().length; i++) {
                long address = node.addresses()[i];
                long size = node.sizes()[i];
                if (address == 0) {
                    buffers.add(new long[] {BatchMessage.NO_HANDLE, 0, 0});
                    continue;
                }
                SharedRegion region = SharedRegions.find(address, size).orElse(null);
                if (region == null) {
                    if (size > 0) {
                        return null;
                    }
                    buffers.add(new long[] {-2, 0, 0});   // empty: placed at the start of any handle below
                    placeAnywhere = true;
                    continue;
                }
                int index = regions.computeIfAbsent(region, r -> regions.size());
                buffers.add(new long[] {index, address - region.base(), size});
            }
            places.add(buffers);
        }
        if (regions.isEmpty() && placeAnywhere || regions.size() > MAX_SHARED_HANDLES) {
            return null;   // empty buffers need a handle to point into; an array without memory needs none
        }
        List<BatchMessage.Node> out = new ArrayList<>(nodes.size());
        for (int n = 0; n < nodes.size(); n++) {
            HostNode node = nodes.get(n);
            List<BatchMessage.Buffer> buffers = new ArrayList<>();
            for (long[] place : places.get(n)) {
                buffers.add(place[0] == -2 ? new BatchMessage.Buffer(0, 0, 0) : new BatchMessage.Buffer((int) place[0], place[1], place[2]));
            }
            out.add(new BatchMessage.Node(node.length(), node.nullCount(), node.offset(), buffers, node.childCount(), node.hasDictionary()));
        }
        return new PlannedBatch(List.copyOf(regions.keySet()), out, false, array.retain());   // keys in insertion order: index order
    }

    private static PlannedBatch copied(List<HostNode> nodes) {
        SharedRegion region = SharedRegion.create("quiver-share-copy", Math.max(64, CopiedLayout.bytesNeeded(nodes)));
        try {
            return new PlannedBatch(List.of(region), CopiedLayout.copy(nodes, region.segment(), 0, 0), true, region);
        } catch (RuntimeException e) {
            region.close();
            throw e;
        }
    }
}
