package dev.quiver.share.internal.arrays;

import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.Devices;
import dev.quiver.SyncEvent;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The contents of a batch of device handles that address other memory (offsets, views, indices, type ids, run ends:
 * {@link ContentChecks}), taken out of the owner's reach: the owner can rewrite its device memory at any moment, so
 * the receiver copies those buffers to the host (each for exactly the bytes its node uses, never past the length
 * the BATCH gives and the handle's size bounds), checks them there, and gives the array device copies of its own
 * made from the checked bytes. The array then reads its offsets from memory only this process writes; its other
 * buffers (values, string bytes, validity) stay the owner's memory, read in place, so a rewrite changes values and
 * never sends a read, a copy or a kernel past a buffer. Where asked, the whole batch is validated on a host copy
 * whose every buffer is copied for its BATCH length alone, so no copy is sized by a value the owner wrote.
 *
 * <p>A schema with no such contents (fixed-width columns) costs nothing: nothing is copied or checked. A batch in
 * flight is waited for on the host before its contents are copied. Made by the receiving thread; {@link #close()}
 * frees the device copies, once, from the thread that releases the array.
 */
final class DeviceContents implements AutoCloseable {
    private final Map<Long, DeviceBuffer> copies;

    private DeviceContents(Map<Long, DeviceBuffer> copies) {
        this.copies = copies;
    }

    /**
     * Copies, checks and re-uploads what addresses memory in a batch.
     *
     * @param schema   the connection's schema
     * @param nodes    the batch's nodes, whose places were checked against the handles' sizes
     * @param shared   buffer {@code index} of node {@code node} in the owner's memory, as the array would wrap it
     *                 (null for a NULL buffer)
     * @param device   the receiver's device
     * @param event    the batch's event, or null when its data are ready
     * @param validate whether the whole batch's contents are validated too
     * @return the private copies, owned by the caller
     * @throws RuntimeException from the validation, naming the field; nothing is left allocated then
     */
    static DeviceContents take(Field schema, List<BatchMessage.Node> nodes, ArrayAssembly.Buffers shared, Device device,
                               SyncEvent event, boolean validate) {
        Map<Long, DeviceBuffer> copies = new HashMap<>();
        if (!ContentChecks.needed(schema)) {
            return new DeviceContents(copies);
        }
        if (event != null) {
            event.waitOnHost();
        }
        Device cpu = Devices.system().cpu();
        List<DeviceBuffer> hostData = new ArrayList<>();
        DeviceStream stream = device.defaultStream();   // no stream made and destroyed per batch
        try (PrivateCopies onHost = PrivateCopies.plan(schema, nodes, cpu)) {
            Map<Long, MemorySegment> hostBuffers = new HashMap<>();
            for (int n = 0; n < nodes.size(); n++) {
                for (int b = 0; b < nodes.get(n).buffers().size(); b++) {
                    BatchMessage.Buffer place = nodes.get(n).buffers().get(b);
                    DeviceBuffer source = shared.buffer(n, b, place);
                    MemorySegment slot = source == null ? null : onHost.slot(n, b);
                    if (slot != null) {
                        source.copyToHost(0, slot, stream);
                        hostBuffers.put(key(n, b), slot);
                    } else if (source != null && validate) {
                        DeviceBuffer data = cpu.allocate(Math.max(1, place.length()));
                        hostData.add(data);
                        MemorySegment bytes = data.asSegment().asSlice(0, place.length());
                        source.copyToHost(0, bytes, stream);
                        hostBuffers.put(key(n, b), bytes);
                    }
                }
            }
            stream.synchronize();
            if (validate) {
                validateOnHost(schema, nodes, hostBuffers, cpu);
            }
            for (Map.Entry<Long, MemorySegment> entry : hostBuffers.entrySet()) {
                int n = (int) (entry.getKey() >>> 32);
                int b = (int) (long) entry.getKey();
                if (onHost.slot(n, b) != null) {
                    DeviceBuffer copy = device.allocate(Math.max(1, entry.getValue().byteSize()));
                    copies.put(entry.getKey(), copy);
                    copy.copyFromHost(entry.getValue(), 0, stream);
                }
            }
            stream.synchronize();
            return new DeviceContents(copies);
        } catch (RuntimeException e) {
            copies.values().forEach(DeviceBuffer::close);
            throw e;
        } finally {
            hostData.forEach(DeviceBuffer::close);
        }
    }

    /**
     * {@return the buffer the array of the batch holds: this process's copy of {@code shared} if it addresses other
     * memory, {@code shared} itself otherwise}
     * @param node   the node's index, pre-order
     * @param index  the buffer's index in the node
     * @param shared the buffer in the owner's memory, or null for a NULL buffer
     * @param device the device of both
     */
    DeviceBuffer place(int node, int index, DeviceBuffer shared, Device device) {
        DeviceBuffer copy = shared == null ? null : copies.get(key(node, index));
        return copy == null ? shared : device.wrap(copy.pointer(), copy.byteSize(), () -> { });
    }

    /** Frees the device copies; later calls do nothing. */
    @Override
    public void close() {
        copies.values().forEach(DeviceBuffer::close);
        copies.clear();
    }

    private static void validateOnHost(Field schema, List<BatchMessage.Node> nodes, Map<Long, MemorySegment> hostBuffers, Device cpu) {
        Map<Long, Long> capacities = new HashMap<>();
        ArrayAssembly.Buffers buffers = (node, index, place) -> {
            MemorySegment bytes = hostBuffers.get(key(node, index));
            if (bytes == null) {
                return null;
            }
            capacities.merge(bytes.address(), bytes.byteSize(), Math::max);
            return cpu.wrap(bytes, bytes.byteSize(), () -> { });
        };
        try (DeviceArray host = ArrayAssembly.build(schema, nodes, buffers, cpu, () -> { })) {
            Interchange.validateFull(host, segment -> capacities.getOrDefault(segment.address(), -1L));
        }
    }

    private static long key(int node, int index) {
        return (long) node << 32 | index;
    }
}
