package dev.quiver.share.internal.arrays;

import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.ProtocolException;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Imports a received BATCH as a {@link DeviceArray}: one of device handles as an array of the receiver's device
 * ({@link DeviceHandleImport}), one of memory files as a CPU array whose contents that address other memory
 * (offsets, views, indices, type ids, run ends) are copied into this process's memory before anything checks
 * them ({@link PrivateCopies}), since the owner can rewrite its files at any moment. Everything in it is untrusted: each
 * descriptor (of a region the batch introduces) must be a memory file sealed against shrinking whose size
 * ({@code fstat}) is the size the message states; a region named by id must be one the {@link RegionCache} knows,
 * of the size stated; each buffer's offset and length must lie inside its region; the nodes must fit the
 * schema; and, when asked, the contents are validated against each buffer's length (offsets inside data
 * buffers, and so on). Every descriptor is closed before this returns, whatever happens; on failure every
 * use of a region is given back (regions it introduced stay known, as the owner believes). Stateless.
 */
public final class BatchImport {
    private BatchImport() {}

    /**
     * Imports one batch.
     *
     * @param message          the BATCH, whose descriptors this call consumes
     * @param schema           the connection's schema
     * @param device           the receiver's device: arrays of device handles are of it, arrays of memory files of
     *                          the CPU
     * @param validateContents whether to validate buffer contents too (reads every byte of offsets and views)
     * @param released         runs with the batch id when the array is released
     * @param cache            the connection's regions
     * @return the array and what the message said of it
     * @throws ProtocolException naming the handle, node or buffer that is wrong
     */
    public static Imported run(Message message, Field schema, Device device, boolean validateContents, LongConsumer released,
                               RegionCache cache) {
        List<RegionCache.Region> uses = new ArrayList<>();
        try {
            BatchMessage batch = BatchMessage.decode(message.body());
            if (batch.descriptorCount() != message.fds().length) {
                throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH " + batch.batchId() + " introduces " + batch.descriptorCount()
                        + " handle(s) with a descriptor; " + message.fds().length + " descriptor(s) came with it");
            }
            boolean deviceHandles = !batch.handles().isEmpty() && batch.handles().getFirst().kind() != HandleKind.MEMFD;
            if (batch.eventKind() != 0 && !deviceHandles) {
                throw new ProtocolException(ErrorCode.HANDLE_KIND, "BATCH " + batch.batchId() + " has an event of kind "
                        + batch.eventKind() + "; events travel with device handles only, and host memory comes ready");
            }
            if (deviceHandles) {
                DeviceArray array = DeviceHandleImport.run(batch, message.fds(), schema, device, validateContents, released);
                return new Imported(array, batch.copied(), batch.batchId());
            }
            if (device.type() != DeviceType.CPU) {
                device = Devices.system().cpu();   // host memory: a copy, or host arrays of the owner
            }
            int nextFd = 0;
            for (int h = 0; h < batch.handles().size(); h++) {
                BatchMessage.Handle handle = batch.handles().get(h);
                int index = h;
                Supplier<String> at = () -> "BATCH " + batch.batchId() + ": handles[" + index + "]";
                if (handle.kind() != HandleKind.MEMFD) {
                    throw new ProtocolException(ErrorCode.HANDLE_KIND, at.get() + " is " + handle.kind() + " in a batch of MEMFD handles; "
                            + "a batch carries host memory or device memory, not both");
                }
                uses.add(handle.introduces() ? introduce(cache, message.fds()[nextFd++], handle, at)
                        : cache.use(handle.regionId(), handle.size(), at));
            }
            List<MemorySegment> mapped = new ArrayList<>(uses.size());
            long[] sizes = new long[uses.size()];
            for (RegionCache.Region use : uses) {
                sizes[mapped.size()] = use.mapping().byteSize();
                mapped.add(use.mapping());
            }
            checkPlaces(batch, sizes);
            Map<Long, Long> capacities = validateContents ? new HashMap<>() : null;   // what each buffer may hold, for the check
            Device host = device;
            PrivateCopies copies = PrivateCopies.plan(schema, batch.nodes(), host);
            ArrayAssembly.Buffers buffers = (node, index, place) -> {
                if (place.handle() == BatchMessage.NO_HANDLE) {
                    return null;
                }
                MemorySegment bytes = copies.place(node, index, mapped.get(place.handle()).asSlice(place.offset(), place.length()));
                if (capacities != null) {
                    capacities.merge(bytes.address(), bytes.byteSize(), Math::max);
                }
                return host.wrap(bytes, bytes.byteSize(), () -> { });
            };
            long id = batch.batchId();
            ReceivedMappings lease = new ReceivedMappings(cache, uses, () -> {
                copies.close();
                released.accept(id);
            });
            uses.clear();   // the lease owns them now
            DeviceArray array;
            try {
                array = ArrayAssembly.build(schema, batch.nodes(), buffers, device, lease);
            } catch (RuntimeException e) {
                lease.close();
                throw asProtocol(e, id);
            }
            if (validateContents) {
                try {
                    Interchange.validateFull(array, segment -> capacities.getOrDefault(segment.address(), -1L));
                } catch (RuntimeException e) {
                    array.close();
                    throw asProtocol(e, id);
                }
            }
            return new Imported(array, batch.copied(), id);
        } catch (RuntimeException e) {
            cache.releaseAll(uses);
            throw e;
        } finally {
            message.closeDescriptors();
        }
    }

    /**
     * A received array.
     *
     * @param array   the array, owned by the caller
     * @param copied  whether the owner copied it for this handoff
     * @param batchId the batch's id
     */
    public record Imported(DeviceArray array, boolean copied, long batchId) {}

    private static RegionCache.Region introduce(RegionCache cache, int fd, BatchMessage.Handle handle, Supplier<String> at) {
        int seals = Memfd.seals(fd);
        if (seals < 0 || (seals & Memfd.REQUIRED_SEALS) != Memfd.REQUIRED_SEALS) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at.get() + ": the descriptor is not a memory file sealed "
                    + "against shrinking (F_SEAL_SHRINK); mapping it would let the owner fault this process");
        }
        long size = Memfd.size(fd);
        if (size != handle.size()) {
            throw new ProtocolException(ErrorCode.LIMIT, at.get() + " says " + Long.toUnsignedString(handle.size())
                    + " bytes; the memory file has " + size);
        }
        if (size <= 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at.get() + " is an empty memory file");
        }
        return cache.introduce(handle.regionId(), fd, size, at);
    }

    /**
     * Checks every buffer's offset and length against the size of the handle it names.
     *
     * @param batch the batch
     * @param sizes the size of each handle's memory, as recorded at the region's first sight or as opened
     * @throws ProtocolException with {@link ErrorCode#LIMIT} naming the first buffer past its handle's memory
     */
    static void checkPlaces(BatchMessage batch, long[] sizes) {
        for (int n = 0; n < batch.nodes().size(); n++) {
            List<BatchMessage.Buffer> buffers = batch.nodes().get(n).buffers();
            for (int b = 0; b < buffers.size(); b++) {
                BatchMessage.Buffer place = buffers.get(b);
                if (place.handle() == BatchMessage.NO_HANDLE) {
                    continue;
                }
                long size = sizes[place.handle()];
                if (place.offset() < 0 || place.length() < 0 || place.offset() > size || place.length() > size - place.offset()) {
                    throw new ProtocolException(ErrorCode.LIMIT, "BATCH " + batch.batchId() + ": nodes[" + n + "].buffers[" + b
                            + "] at offset " + Long.toUnsignedString(place.offset()) + " for " + Long.toUnsignedString(place.length())
                            + " bytes is past the " + size + " bytes of handles[" + place.handle() + "]");
                }
            }
        }
    }

    /** {@return {@code e} as the refusal of batch {@code id}} */
    static ProtocolException asProtocol(RuntimeException e, long id) {
        return e instanceof ProtocolException p ? p
                : new ProtocolException(ErrorCode.PROTOCOL, "BATCH " + id + " is not a valid array: " + e.getMessage());
    }
}
