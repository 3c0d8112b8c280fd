package dev.quiver.share.internal.arrays;

import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.List;

/**
 * Which contents of an array of a schema can send a reader anywhere its structure did not say: offsets,
 * list-view sizes, views, the sizes of variadic buffers, union type ids and offsets, dictionary indices and run
 * ends can; validity bits, booleans, fixed-width values and the bytes of strings and binaries cannot. A receiver
 * copies the first kind into its own memory before it checks them ({@link PrivateCopies}), and checks the
 * contents of device arrays on the host only where a schema has them, since that means copying the array off
 * its device. Stateless.
 */
final class ContentChecks {
    private ContentChecks() {}

    /**
     * What one node of a schema's tree holds.
     *
     * @param layout     the buffers of its type (the index type for a dictionary-encoded field)
     * @param indexData  whether its fixed-width data are indices into other memory: dictionary indices, or the
     *                   run ends of a run-end encoded parent
     */
    record NodeContents(BufferLayout layout, boolean indexData) {
        /**
         * {@return the bytes of buffer {@code i} that a node of {@code slots} slots (offset + length) uses from the
         * buffer's start, at most {@code available}: what a copy of it needs; {@code available} where the node's
         * fields are out of range (the node is refused when the array is built)}
         * @param i         the buffer's index
         * @param nBuffers  the node's buffer count
         * @param slots     the node's offset plus its length
         * @param available the buffer's length
         */
        long bytesUsed(int i, int nBuffers, long slots, long available) {
            if (slots < 0) {
                return available;
            }
            try {
                long used = i < layout.bufferCount() ? exactBytesFor(layout.buffers().get(i), slots)
                        : Math.multiplyExact(nBuffers - layout.bufferCount() - 1L, 8L);
                return used < 0 ? available : Math.min(used, available);
            } catch (ArithmeticException overflow) {
                return available;
            }
        }

        private static long exactBytesFor(BufferLayout.Buffer buffer, long slots) {
            return switch (buffer.kind()) {
                case VALIDITY, BITS -> Math.addExact(slots, 7) / 8;
                case OFFSETS -> Math.multiplyExact(Math.addExact(slots, 1), buffer.bitWidth() / 8);
                case SIZES, FIXED, TYPE_IDS, UNION_OFFSETS, VIEWS -> Math.multiplyExact(slots, buffer.bitWidth() / 8);
                case DATA -> -1;   // sized by the offsets: all of it
            };
        }

        /**
         * {@return whether buffer {@code i} of a node with {@code nBuffers} buffers addresses other memory}
         * @param i        the buffer's index
         * @param nBuffers the node's buffer count
         */
        boolean addresses(int i, int nBuffers) {
            if (i >= layout.bufferCount()) {
                return layout.variadic() && i == nBuffers - 1;   // the sizes of the variadic buffers; not their bytes
            }
            return switch (layout.buffers().get(i).kind()) {
                case OFFSETS, SIZES, TYPE_IDS, UNION_OFFSETS, VIEWS -> true;
                case FIXED -> indexData;
                case VALIDITY, BITS, DATA -> false;
            };
        }
    }

    /** {@return whether any node of {@code field}'s tree has contents that address other memory} @param field the schema */
    static boolean needed(Field field) {
        for (NodeContents node : nodes(field)) {
            for (int i = 0; i < node.layout().bufferCount() + (node.layout().variadic() ? 1 : 0); i++) {
                if (node.addresses(i, node.layout().bufferCount() + 1)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@return the nodes of {@code field}'s tree in the pre-order of a BATCH: a node, the nodes of each child in
     * order, then the nodes of its dictionary}
     * @param field the schema
     */
    static List<NodeContents> nodes(Field field) {
        List<NodeContents> out = new ArrayList<>();
        add(field, false, out);
        return out;
    }

    private static void add(Field field, boolean runEnds, List<NodeContents> out) {
        out.add(new NodeContents(BufferLayout.of(field.type()), runEnds || field.dictionary() != null));
        boolean runEndEncoded = field.type() instanceof ArrowType.RunEndEncoded;
        for (int k = 0; k < field.children().size(); k++) {
            add(field.children().get(k), runEndEncoded && k == 0, out);
        }
        if (field.dictionary() != null) {
            add(field.dictionary().values(), false, out);
        }
    }
}
