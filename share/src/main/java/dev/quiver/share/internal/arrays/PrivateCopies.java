package dev.quiver.share.internal.arrays;

import dev.quiver.Device;
import dev.quiver.DeviceBuffer;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * The receiver's own copy of the contents of a batch of memory files that address other memory (offsets,
 * list-view sizes, views, variadic sizes, union type ids and offsets, dictionary indices, run ends: see
 * {@link ContentChecks}), so that what the receiver checks is what every later reader reads. The owner keeps its
 * memory files mapped writable and can rewrite them at any moment; a value a reader relies on to stay in bounds
 * is therefore taken out of its reach once, before the batch is checked, into one block of host memory per batch.
 * The bytes those values address (the values of fixed-width columns, the bytes of strings, validity bits) stay
 * in the owner's memory, read in place: the owner can change them, and a reader then reads other values, but
 * never outside the buffer whose bounds the private values were checked against.
 *
 * <p>Made and filled by the receiving thread before the array is built; {@link #close()} frees the block, once,
 * from whichever thread releases the array.
 */
final class PrivateCopies implements AutoCloseable {
    private static final long ALIGNMENT = 64;
    private static final long NOT_COPIED = -1;

    private final long[][] places;
    private final long[][] lengths;
    private final DeviceBuffer block;
    private final MemorySegment memory;

    private PrivateCopies(long[][] places, long[][] lengths, DeviceBuffer block) {
        this.places = places;
        this.lengths = lengths;
        this.block = block;
        this.memory = block == null ? MemorySegment.NULL : block.asSegment();
    }

    /**
     * Plans the copies of a batch's nodes and allocates their block on {@code host}.
     *
     * @param schema the connection's schema; nodes past its tree are copied nowhere (the assembly refuses them)
     * @param nodes  the batch's nodes, pre-order
     * @param host   the host device the block is allocated on
     * @return the copies, owned by the caller, empty when nothing addresses memory
     */
    static PrivateCopies plan(Field schema, List<BatchMessage.Node> nodes, Device host) {
        List<ContentChecks.NodeContents> contents = ContentChecks.nodes(schema);
        long[][] places = new long[nodes.size()][];
        long[][] lengths = new long[nodes.size()][];
        long total = 0;
        for (int n = 0; n < nodes.size() && n < contents.size(); n++) {
            List<BatchMessage.Buffer> buffers = nodes.get(n).buffers();
            for (int b = 0; b < buffers.size(); b++) {
                BatchMessage.Buffer place = buffers.get(b);
                if (place.handle() == BatchMessage.NO_HANDLE || place.length() == 0 || !contents.get(n).addresses(b, buffers.size())) {
                    continue;
                }
                if (places[n] == null) {
                    places[n] = new long[buffers.size()];
                    lengths[n] = new long[buffers.size()];
                    Arrays.fill(places[n], NOT_COPIED);
                }
                long slots = nodes.get(n).offset() + nodes.get(n).length();   // overflow: negative, and the whole buffer is copied
                long used = contents.get(n).bytesUsed(b, buffers.size(), slots, place.length());
                places[n][b] = total;
                lengths[n][b] = used;
                total = Math.addExact(total, (used + ALIGNMENT - 1) & -ALIGNMENT);
            }
        }
        return new PrivateCopies(places, lengths, total == 0 ? null : host.allocate(total, ALIGNMENT));
    }

    /**
     * {@return the memory a reader of buffer {@code index} of node {@code node} reads: a private copy of the bytes
     * of {@code shared} the node uses if it addresses other memory, {@code shared} itself otherwise}
     * @param node   the node's index, pre-order
     * @param index  the buffer's index in the node
     * @param shared the buffer in the owner's memory, of the length the BATCH gives
     */
    MemorySegment place(int node, int index, MemorySegment shared) {
        MemorySegment copy = slot(node, index);
        if (copy == null) {
            return shared;
        }
        MemorySegment.copy(shared, 0, copy, 0, copy.byteSize());
        return copy;
    }

    /**
     * {@return where the private copy of buffer {@code index} of node {@code node} lies in the block, of the bytes
     * the node uses, or null if that buffer is not copied}
     * @param node  the node's index, pre-order
     * @param index the buffer's index in the node
     */
    MemorySegment slot(int node, int index) {
        long at = node < places.length && places[node] != null ? places[node][index] : NOT_COPIED;
        return at == NOT_COPIED ? null : memory.asSlice(at, lengths[node][index]);
    }

    /** Frees the block; later calls do nothing. */
    @Override
    public void close() {
        if (block != null) {
            block.close();
        }
    }
}
