package dev.quiver.share.internal.arrays;

import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMemory;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.SyncEvent;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.ProtocolException;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Imports a received BATCH whose handles are the driver's inter-process handles of device memory
 * (docs/SHARING.md, "Device IPC handles") as a {@link DeviceArray} of the receiver's device: each handle must be
 * of the kind of that device's backend mechanism and is opened with {@link dev.quiver.spi.IpcMemory#openMemory}, and each
 * buffer's offset and length must lie inside the size the handle states. That size is checked before any
 * buffer is placed: by the backend's open, which refuses a size past the opened allocation where the driver
 * reports it (CUDA, HIP, Level Zero), and, for a handle that is a file descriptor ({@code VULKAN_FD}), against
 * the size of the file behind it ({@link ExportedDescriptor}) before the driver opens it. The array's buffers
 * wrap the opened pointers with {@link Device#wrap}, except those that address other memory, which are this
 * process's copies ({@link DeviceContents}); its release closes the opened memory and frees the copies, then tells
 * the owner.
 * On failure everything opened is closed before this throws; the descriptors stay the caller's (the backend
 * opens a duplicate). Stateless.
 */
final class DeviceHandleImport {
    private DeviceHandleImport() {}

    /**
     * Imports one batch of device handles.
     *
     * @param batch    the decoded BATCH
     * @param fds      the descriptors that came with it, one per handle of a kind that carries one, in order;
     *                 the caller's, who closes them
     * @param schema   the connection's schema
     * @param device   the receiver's device, which the arrays are of
     * @param validateContents whether the batch's contents are validated (on a host copy) as well as its structure
     * @param released runs with the batch id when the array is released
     * @return the array, owned by the caller
     * @throws ProtocolException naming the handle, node or buffer that is wrong, or the driver's refusal
     */
    static DeviceArray run(BatchMessage batch, int[] fds, Field schema, Device device, boolean validateContents,
                           LongConsumer released) {
        String name = "BATCH " + batch.batchId();
        BackendDevice backend = device.type() == DeviceType.CPU ? null : Backends.of(device);
        HandleKind kind = backend == null ? null : backend.capability(IpcMemory.class).flatMap(ipc -> HandleKind.of(ipc.ipcMechanism())).orElse(null);
        List<ImportedMemory> opened = new ArrayList<>();
        try {
            long[] sizes = new long[batch.handles().size()];
            int nextFd = 0;
            for (int h = 0; h < batch.handles().size(); h++) {
                BatchMessage.Handle handle = batch.handles().get(h);
                String at = name + ": handles[" + h + "]";
                if (handle.kind() != kind) {
                    throw new ProtocolException(ErrorCode.HANDLE_KIND, at + " is " + handle.kind() + "; this receiver of "
                            + device + " imports " + (kind == null ? "MEMFD handles only" : kind + " and MEMFD handles, one kind per batch"));
                }
                int fd = -1;
                if (kind.carriesDescriptor()) {
                    if (!handle.introduces()) {
                        throw new ProtocolException(ErrorCode.PROTOCOL, at + " is a " + kind + " handle without flag NEW; its "
                                + "descriptor travels with every batch that uses it");
                    }
                    fd = fds[nextFd++];
                }
                opened.add(open(backend, handle, fd, at));
                sizes[h] = handle.size();
            }
            BatchImport.checkPlaces(batch, sizes);
            if (kind.buffersAtStart()) {
                checkAtStart(batch, kind);
            }
            SyncEvent event = openEvent(batch, backend, device, kind, name);
            List<ImportedMemory> memory = List.copyOf(opened);
            ArrayAssembly.Buffers shared = (node, index, place) -> place.handle() == BatchMessage.NO_HANDLE ? null
                    : device.wrap(MemorySegment.ofAddress(memory.get(place.handle()).pointer().address() + place.offset()),
                            place.length(), () -> { });
            DeviceContents contents;
            try {
                contents = DeviceContents.take(schema, batch.nodes(), shared, device, event, validateContents);
            } catch (RuntimeException e) {
                if (event != null) {
                    event.close();
                }
                throw BatchImport.asProtocol(e, batch.batchId());
            }
            ArrayAssembly.Buffers buffers = (node, index, place) -> contents.place(node, index, shared.buffer(node, index, place), device);
            long id = batch.batchId();
            OpenedHandles lease = new OpenedHandles(opened, () -> {
                contents.close();
                released.accept(id);
            });
            opened.clear();   // the lease owns them now
            try {
                return ArrayAssembly.build(schema, batch.nodes(), buffers, device, lease, event);
            } catch (RuntimeException e) {
                if (event != null) {
                    event.close();   // destroys it unless it moved into the array, whose close destroyed it
                }
                lease.close();
                throw BatchImport.asProtocol(e, id);
            }
        } finally {
            OpenedHandles.closeAll(opened);
        }
    }

    /**
     * Opens the batch's event, if it has one, as an owned event of {@code device} that the array will carry as its
     * sync event (the array's release destroys it, before RELEASED travels).
     */
    private static SyncEvent openEvent(BatchMessage batch, BackendDevice backend, Device device, HandleKind kind, String name) {
        if (batch.eventKind() == 0) {
            return null;
        }
        IpcMechanism mechanism = kind.mechanism();
        boolean opens = device.interProcessMemory().events();   // what this receiver's HELLO offered
        if (batch.eventKind() != kind.wire() || !opens) {
            throw new ProtocolException(ErrorCode.HANDLE_KIND, name + " has an event of kind " + batch.eventKind() + "; this receiver of "
                    + device + (opens ? " opens events of kind " + kind.wire() + " (" + kind + ") only" : " opens no events (its HELLO did not offer them)"));
        }
        byte[] payload = batch.eventPayload();
        if (payload.length != mechanism.eventHandleBytes()) {
            throw new ProtocolException(ErrorCode.PROTOCOL, name + " has an event payload of " + payload.length + " bytes; a " + kind
                    + " event handle is " + mechanism.eventHandleBytes());
        }
        MemorySegment opened;
        try {
            opened = backend.capability(IpcEvents.class).orElseThrow().openEvent(new IpcEventHandle(mechanism, payload));
        } catch (RuntimeException e) {
            throw new ProtocolException(ErrorCode.PROTOCOL, name + ": the device refused the " + kind + " event handle: " + e.getMessage());
        }
        return device.adoptEvent(opened, true);
    }

    /** Refuses a buffer that does not lie at the start of its handle's memory, naming it. */
    private static void checkAtStart(BatchMessage batch, HandleKind kind) {
        for (int n = 0; n < batch.nodes().size(); n++) {
            List<BatchMessage.Buffer> buffers = batch.nodes().get(n).buffers();
            for (int b = 0; b < buffers.size(); b++) {
                if (buffers.get(b).handle() != BatchMessage.NO_HANDLE && buffers.get(b).offset() != 0) {
                    throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH " + batch.batchId() + ": nodes[" + n + "].buffers[" + b
                            + "] lies at offset " + Long.toUnsignedString(buffers.get(b).offset()) + " of handles[" + buffers.get(b).handle()
                            + "]; a buffer of a " + kind + " handle lies at offset 0, the start of the memory the receiver binds");
                }
            }
        }
    }

    private static ImportedMemory open(BackendDevice backend, BatchMessage.Handle handle, int fd, String at) {
        byte[] bytes = handle.payload();
        if (bytes.length != handle.kind().mechanism().handleBytes() || handle.size() <= 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + " has a payload of " + bytes.length + " bytes and a size of "
                    + Long.toUnsignedString(handle.size()) + "; a " + handle.kind() + " handle is " + handle.kind().mechanism().handleBytes()
                    + " bytes of an allocation of at least 1 byte");
        }
        if (fd >= 0) {
            ExportedDescriptor.check(fd, handle.size(), at);
        }
        try {
            return backend.capability(IpcMemory.class).orElseThrow().openMemory(new IpcMemoryHandle(handle.kind().mechanism(), bytes, fd, 0, handle.size()));
        } catch (RuntimeException e) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + ": the device refused the " + handle.kind() + " handle: " + e.getMessage());
        }
    }
}
