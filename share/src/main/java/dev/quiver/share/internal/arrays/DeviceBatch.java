package dev.quiver.share.internal.arrays;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMemory;
import dev.quiver.DeviceArray;
import dev.quiver.SyncEvent;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One device array made ready to send as the driver's inter-process handles of the allocations its buffers
 * lie in (docs/SHARING.md, "Device IPC handles"): a handle per allocation (its bytes or its descriptor, its
 * size), and each buffer as a handle index, its offset from the allocation's start and its length. Nothing is
 * copied. Where the receiver opens events, the array's sync event travels as an inter-process event recorded after
 * it on the backend's default stream (the owner does not wait); otherwise it is waited on, on the host, before
 * the handles are made.
 *
 * <p><b>Ownership.</b> The caller owns {@link #hold()} (a reference on the array, and the inter-process event, which
 * it destroys) and closes it exactly once,
 * when the receiver released the batch or is gone (or the send failed). The caller also owns the descriptors of
 * {@link #fds()} (one per handle of a kind that {@linkplain HandleKind#carriesDescriptor() carries one}, in
 * handle order, each exported for this batch) and closes them exactly once with {@link #closeDescriptors()}
 * once the BATCH is sent or its send failed: the receiver holds its own copies.
 *
 * <p><b>Threading.</b> Used by the one thread that sends the batch.
 *
 * @param handles the handles, without repeats; each introduces itself (region ids count from 1 in the batch)
 * @param nodes   the nodes, whose buffers name indexes into {@code handles}
 * @param fds     the descriptors that travel with the BATCH, in the order of their handles
 * @param hold    what keeps the array's memory (and its inter-process event) alive
 * @param eventKind    the BATCH's {@code event_kind}: the handle kind's code with an event, 0 without
 * @param eventPayload the event's handle bytes, empty without
 */
public record DeviceBatch(List<BatchMessage.Handle> handles, List<BatchMessage.Node> nodes, int[] fds, AutoCloseable hold,
                          int eventKind, byte[] eventPayload) {
    /** Copies the lists, the descriptors' numbers and the event's bytes. */
    public DeviceBatch {
        handles = List.copyOf(handles);
        nodes = List.copyOf(nodes);
        fds = fds.clone();
        eventPayload = eventPayload.clone();
    }

    /** {@return a copy of the event's handle bytes} */
    @Override
    public byte[] eventPayload() {
        return eventPayload.clone();
    }

    /** {@return a copy of the descriptors' numbers, owned by this batch until {@link #closeDescriptors()}} */
    @Override
    public int[] fds() {
        return fds.clone();
    }

    /** Closes every descriptor of {@link #fds()}; call it once, after the BATCH is sent or its send failed. */
    public void closeDescriptors() {
        for (int fd : fds) {
            Memfd.close(fd);
        }
    }

    /**
     * {@return the BATCH of this plan: delivery 0 (the owner's own memory), with its event if it has one}
     * @param batchId the batch's id
     */
    public BatchMessage message(long batchId) {
        return new BatchMessage(batchId, false, handles, eventKind, eventPayload, nodes);
    }

    /**
     * Plans the handoff of a device array as handles of {@code kind}, with its sync event as an inter-process
     * event if {@code events}, else after waiting on the host for it. Gives up (empty) when a buffer lies outside memory the backend can export (memory the
     * application wrapped, a buffer of another kind of allocation): the caller copies the array then. A
     * descriptor exported for an allocation already in the batch, or for a plan given up, is closed here.
     *
     * @param array   an open array of {@code backend}'s device; the caller keeps its own reference
     * @param backend the device's backend, whose {@link dev.quiver.spi.IpcMemory#ipcMechanism()} {@code kind} carries
     * @param kind    the handle kind
     * @param events  whether the receiver opens events and {@code backend} exports them
     * @return the plan, or empty if some buffer cannot be exported (the event made for it is destroyed)
     */
    public static Optional<DeviceBatch> of(DeviceArray array, BackendDevice backend, HandleKind kind, boolean events) {
        Optional<SyncEvent> sync = array.syncEvent();
        MemorySegment shared = MemorySegment.NULL;
        if (events && sync.isPresent()) {
            MemorySegment stream = backend.defaultStream();   // ordered after the producer's work, then marked for the peer
            backend.capability(EventWaits.class).orElseThrow().streamWaitEvent(stream, sync.get().handle());
            shared = backend.capability(IpcEvents.class).orElseThrow().recordInterProcessEvent(stream);
        } else {
            sync.ifPresent(SyncEvent::waitOnHost);
        }
        MemorySegment event = shared;
        boolean planned = false;
        try {
            Optional<DeviceBatch> batch = plan(array, backend, kind, event);
            planned = batch.isPresent();
            return batch;
        } finally {
            if (!planned && !event.equals(MemorySegment.NULL)) {
                backend.capability(DeviceEvents.class).orElseThrow().destroyEvent(event);
            }
        }
    }

    private static Optional<DeviceBatch> plan(DeviceArray array, BackendDevice backend, HandleKind kind, MemorySegment event) {
        List<HostNode> walked = HostNodes.of(array, (buffer, offset, size) -> read(backend, buffer, offset, size));
        Exports exports = new Exports(backend, kind);
        try {
            List<BatchMessage.Node> nodes = new ArrayList<>(walked.size());
            for (HostNode node : walked) {
                List<BatchMessage.Buffer> buffers = new ArrayList<>(node.addresses().length);
                for (int i = 0; i < node.addresses().length; i++) {
                    BatchMessage.Buffer place = node.addresses()[i] == 0 ? new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0)
                            : exports.place(node.addresses()[i], node.sizes()[i]);
                    if (place == null) {
                        exports.closeDescriptors();
                        return Optional.empty();
                    }
                    buffers.add(place);
                }
                nodes.add(new BatchMessage.Node(node.length(), node.nullCount(), node.offset(), buffers, node.childCount(), node.hasDictionary()));
            }
            if (exports.handles.size() > MAX_HANDLES) {
                exports.closeDescriptors();
                return Optional.empty();
            }
            boolean withEvent = !event.equals(MemorySegment.NULL);
            byte[] payload = withEvent ? backend.capability(IpcEvents.class).orElseThrow().exportEvent(event).handle() : new byte[0];
            var retained = array.retain();
            AutoCloseable hold = withEvent ? () -> {
                try (retained) {
                    backend.capability(DeviceEvents.class).orElseThrow().destroyEvent(event);   // the receiver destroyed what it opened before it released the batch
                }
            } : retained;
            return Optional.of(new DeviceBatch(exports.handles, nodes, exports.fds.stream().mapToInt(Integer::intValue).toArray(),
                    hold, withEvent ? kind.wire() : 0, payload));
        } catch (RuntimeException e) {
            exports.closeDescriptors();
            throw e;
        }
    }

    private static final class Exports {
        private final BackendDevice backend;
        private final HandleKind kind;
        private final Map<Object, Integer> indexes = new HashMap<>();
        private final List<BatchMessage.Handle> handles = new ArrayList<>();
        private final List<Integer> fds = new ArrayList<>();

        Exports(BackendDevice backend, HandleKind kind) {
            this.backend = backend;
            this.kind = kind;
        }

        /**
         * {@return where a buffer lies in the allocation its handle names, adding the handle if it is new; null if
         * the backend cannot export the buffer's memory}
         */
        BatchMessage.Buffer place(long address, long size) {
            IpcMemoryHandle exported;
            try {
                exported = backend.capability(IpcMemory.class).orElseThrow().exportMemory(MemorySegment.ofAddress(address), 0);
            } catch (IllegalArgumentException | UnsupportedOperationException notExportable) {
                return null;
            }
            int fd = exported.fileDescriptor();
            long allocationSize = exported.allocationSize();
            Object key = fd >= 0 ? (Object) (address - exported.offset()) : HexFormat.of().formatHex(exported.handle());
            if (allocationSize < 0 || size > allocationSize - exported.offset() || (kind.buffersAtStart() && exported.offset() != 0)) {
                closeIfAny(fd);
                return null;
            }
            Integer index = indexes.get(key);
            if (index != null) {
                closeIfAny(fd);   // an allocation the batch has already
                return new BatchMessage.Buffer(index, exported.offset(), size);
            }
            index = handles.size();
            indexes.put(key, index);
            handles.add(new BatchMessage.Handle(kind, allocationSize, index + 1, true, exported.handle()));
            if (fd >= 0) {
                fds.add(fd);
            }
            return new BatchMessage.Buffer(index, exported.offset(), size);
        }

        /** Closes {@code fd} where the export made one (it is -1 for handles of bytes). */
        private static void closeIfAny(int fd) {
            if (fd >= 0) {
                Memfd.close(fd);
            }
        }

        /** Closes every descriptor exported so far. */
        void closeDescriptors() {
            fds.forEach(Memfd::close);
            fds.clear();
        }
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
