package dev.quiver.share.internal.arrays;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.SyncEvent;
import dev.quiver.DeviceBuffer;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ProtocolException;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link DeviceArray} from a field and nodes in pre-order (the form of a BATCH) with the public
 * {@link ArrayBuilder}, which checks every node as an import would (buffer counts and sizes against the type,
 * offsets, lengths). Buffers come from a {@link Buffers} the caller gives; the whole array's memory is tied to
 * one resource, closed by the array's release. Stateless.
 */
public final class ArrayAssembly {
    private ArrayAssembly() {}

    /** Where the buffers of the nodes lie. */
    public interface Buffers {
        /**
         * {@return buffer {@code index} of node {@code node} as a buffer the array may own (its release frees
         * nothing of its own), or null for a NULL buffer}
         * @param node   the node's index, pre-order
         * @param index  the buffer's index in the node
         * @param buffer the buffer's place
         */
        DeviceBuffer buffer(int node, int index, BatchMessage.Buffer buffer);
    }

    /**
     * Builds the array.
     *
     * @param field     the root field
     * @param nodes     the nodes, pre-order, exactly as many as the field's tree has
     * @param buffers   the buffers
     * @param device    the device of the buffers
     * @param keepAlive closed by the array's release; closed by the caller if this throws
     * @return the array, owned by the caller
     * @throws ProtocolException naming the node if the nodes do not fit the field
     * @throws IllegalArgumentException or {@link dev.quiver.InvalidArrowException} from the builder's checks
     */
    public static DeviceArray build(Field field, List<BatchMessage.Node> nodes, Buffers buffers, Device device,
                                    AutoCloseable keepAlive) {
        return build(field, nodes, buffers, device, keepAlive, null);
    }

    /**
     * As {@link #build(Field, List, Buffers, Device, AutoCloseable)}, the root carrying {@code event} as its sync
     * event: it moves into the array, whose release destroys it.
     *
     * @param field     the schema
     * @param nodes     the nodes, in pre-order
     * @param buffers   makes each buffer
     * @param device    the device of every buffer
     * @param keepAlive closed when the array and every view of it are released
     * @param event     an owned event of {@code device} the data is ready at, or null when it is ready now; if this
     *                  throws, the caller closes the event (closing one that moved in does nothing)
     * @return the array
     * @throws ProtocolException if the nodes do not fit the schema
     */
    public static DeviceArray build(Field field, List<BatchMessage.Node> nodes, Buffers buffers, Device device,
                                    AutoCloseable keepAlive, SyncEvent event) {
        int[] next = {0};
        DeviceArray array = node(field, nodes, next, buffers, device, keepAlive, event);
        if (next[0] != nodes.size()) {
            array.close();
            throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH has " + nodes.size() + " nodes; its schema has " + next[0]);
        }
        return array;
    }

    private static DeviceArray node(Field field, List<BatchMessage.Node> nodes, int[] next, Buffers buffers, Device device,
                                    AutoCloseable keepAlive, SyncEvent event) {
        int index = next[0]++;
        if (index >= nodes.size()) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH has " + nodes.size() + " nodes; its schema has more");
        }
        BatchMessage.Node node = nodes.get(index);
        if (node.childCount() != field.children().size()) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH: " + at(index, field) + " has " + node.childCount()
                    + " children; its type " + field.type().format() + " has " + field.children().size());
        }
        if (node.hasDictionary() != (field.dictionary() != null)) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH: " + at(index, field) + (node.hasDictionary()
                    ? " has a dictionary; its field is not dictionary-encoded" : " has no dictionary; its field is dictionary-encoded"));
        }
        List<DeviceArray> parts = new ArrayList<>();
        List<DeviceBuffer> made = new ArrayList<>();   // the caller's until the build moves them into the array
        try {
            ArrayBuilder builder = ArrayBuilder.of(field, device).length(node.length()).nullCount(node.nullCount())
                    .offset(node.offset());
            for (int i = 0; i < node.buffers().size(); i++) {
                DeviceBuffer buffer = buffers.buffer(index, i, node.buffers().get(i));
                if (buffer == null) {
                    builder.absentBuffer();
                } else {
                    made.add(buffer);
                    builder.buffer(buffer);
                }
            }
            for (Field child : field.children()) {
                DeviceArray built = node(child, nodes, next, buffers, device, null, null);
                parts.add(built);
                builder.child(built);
            }
            if (field.dictionary() != null) {
                DeviceArray built = node(field.dictionary().values(), nodes, next, buffers, device, null, null);
                parts.add(built);
                builder.dictionary(built);
            }
            if (keepAlive != null) {
                builder.keepAlive(keepAlive);
            }
            if (event != null) {
                builder.syncEvent(event);
            }
            return builder.build();
        } catch (RuntimeException e) {
            parts.forEach(DeviceArray::close);
            made.forEach(DeviceBuffer::close);
            throw e;
        }
    }

    private static String at(int index, Field field) {
        return "nodes[" + index + "] (field \"" + field.name() + "\")";
    }
}
