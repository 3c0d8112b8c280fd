package dev.quiver.share.internal.arrays;

import dev.quiver.DeviceArray;
import dev.quiver.SyncEvent;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One device array made ready to send as the driver's inter-process handles of the allocations its buffers
 * lie in (docs/SHARING.md, "Device IPC handles"): a handle per allocation (its bytes, its size), and each
 * buffer as a handle index, its offset from the allocation's start and its length. Nothing is copied and
 * nothing travels as a descriptor; the array's sync event is waited on, on the host, before the handles are
 * made, since events do not travel yet.
 *
 * <p><b>Ownership.</b> The caller owns {@link #hold()} (a reference on the array) and closes it exactly once,
 * when the receiver released the batch or is gone (or the send failed).
 *
 * @param handles the handles, without repeats; each introduces itself (region ids count from 1 in the batch)
 * @param nodes   the nodes, whose buffers name indexes into {@code handles}
 * @param hold    what keeps the array's memory alive
 */
public record DeviceBatch(List<BatchMessage.Handle> handles, List<BatchMessage.Node> nodes, AutoCloseable hold) {
    /** Copies the lists. */
    public DeviceBatch {
        handles = List.copyOf(handles);
        nodes = List.copyOf(nodes);
    }

    /**
     * {@return the BATCH of this plan: delivery 0 (the owner's own memory), no event}
     * @param batchId the batch's id
     */
    public BatchMessage message(long batchId) {
        return new BatchMessage(batchId, false, handles, 0, new byte[0], nodes);
    }

    /**
     * Plans the handoff of a device array as handles of {@code kind}, after waiting on the host for its sync
     * event. Gives up (empty) when a buffer lies outside memory the backend can export (memory the
     * application wrapped, a buffer of another kind of allocation): the caller copies the array then.
     *
     * @param array   an open array of {@code backend}'s device; the caller keeps its own reference
     * @param backend the device's backend, whose {@link BackendDevice#ipcMechanism()} {@code kind} carries
     * @param kind    the handle kind
     * @return the plan, or empty if some buffer cannot be exported
     */
    public static Optional<DeviceBatch> of(DeviceArray array, BackendDevice backend, HandleKind kind) {
        array.syncEvent().ifPresent(SyncEvent::waitOnHost);
        List<HostNode> walked = HostNodes.of(array, (buffer, offset, size) -> read(backend, buffer, offset, size));
        Map<String, Integer> indexes = new LinkedHashMap<>();
        List<BatchMessage.Handle> handles = new ArrayList<>();
        List<BatchMessage.Node> nodes = new ArrayList<>(walked.size());
        for (HostNode node : walked) {
            List<BatchMessage.Buffer> buffers = new ArrayList<>(node.addresses().length);
            for (int i = 0; i < node.addresses().length; i++) {
                BatchMessage.Buffer place = node.addresses()[i] == 0 ? new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0)
                        : exported(backend, kind, node.addresses()[i], node.sizes()[i], indexes, handles);
                if (place == null) {
                    return Optional.empty();
                }
                buffers.add(place);
            }
            nodes.add(new BatchMessage.Node(node.length(), node.nullCount(), node.offset(), buffers, node.childCount(), node.hasDictionary()));
        }
        if (handles.size() > MAX_HANDLES) {
            return Optional.empty();
        }
        return Optional.of(new DeviceBatch(handles, nodes, array.retain()));
    }

    /**
     * {@return where a buffer lies in the allocation its handle names, adding the handle if it is new; null if
     * the backend cannot export the buffer's memory}
     */
    private static BatchMessage.Buffer exported(BackendDevice backend, HandleKind kind, long address, long size,
                                                Map<String, Integer> indexes, List<BatchMessage.Handle> handles) {
        IpcMemoryHandle exported;
        try {
            exported = backend.exportMemory(MemorySegment.ofAddress(address), 0);
        } catch (IllegalArgumentException | UnsupportedOperationException notExportable) {
            return null;
        }
        long allocationSize = exported.allocationSize();
        if (allocationSize < 0 || size > allocationSize - exported.offset()) {
            return null;
        }
        byte[] bytes = exported.handle();
        int index = indexes.computeIfAbsent(HexFormat.of().formatHex(bytes), key -> {
            handles.add(new BatchMessage.Handle(kind, allocationSize, handles.size() + 1, true, bytes));
            return handles.size() - 1;
        });
        return new BatchMessage.Buffer(index, exported.offset(), size);
    }

    /** An array spread over more allocations than this is copied rather than sent as that many handles. */
    private static final int MAX_HANDLES = 64;

    /** Reads a few bytes of device memory (a last string offset, the sizes of views) on the host. */
    private static MemorySegment read(BackendDevice backend, long buffer, long offset, long size) {
        MemorySegment host = Arena.ofAuto().allocate(Math.max(size, 1), 8).asSlice(0, size);
        backend.copyToHost(MemorySegment.ofAddress(buffer), offset, host, backend.defaultStream());
        backend.synchronizeStream(backend.defaultStream());
        return host;
    }
}
