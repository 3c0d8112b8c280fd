package dev.quiver.share.internal.arrays;

import dev.quiver.share.internal.posix.HostPointers;
import dev.quiver.share.internal.protocol.BatchMessage;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Lays the buffers of {@link HostNode}s out one after another in one piece of memory, each at a 64-byte
 * boundary, and copies them there: the layout of a copied batch and of an array copied into a shared arena.
 * Stateless.
 */
public final class CopiedLayout {
    private static final long ALIGNMENT = 64;

    private CopiedLayout() {}

    /** {@return the bytes the buffers of {@code nodes} take when laid out} @param nodes the nodes */
    public static long bytesNeeded(List<HostNode> nodes) {
        long total = 0;
        for (HostNode node : nodes) {
            for (int i = 0; i < node.addresses().length; i++) {
                if (node.addresses()[i] != 0) {
                    total = Math.addExact(align(total), node.sizes()[i]);
                }
            }
        }
        return total;
    }

    /**
     * Copies the buffers into {@code target} and describes where they went.
     *
     * @param nodes  the nodes, whose buffers are readable host memory
     * @param target at least {@link #bytesNeeded} bytes, starting at a 64-byte boundary
     * @param base   the offset of {@code target} in the memory {@code handle} names
     * @param handle the handle index the buffers get
     * @return the nodes with their buffers' places
     */
    public static List<BatchMessage.Node> copy(List<HostNode> nodes, MemorySegment target, long base, int handle) {
        List<BatchMessage.Node> out = new ArrayList<>(nodes.size());
        long at = 0;
        for (HostNode node : nodes) {
            List<BatchMessage.Buffer> buffers = new ArrayList<>(node.addresses().length);
            for (int i = 0; i < node.addresses().length; i++) {
                if (node.addresses()[i] == 0) {
                    buffers.add(new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0));
                    continue;
                }
                at = align(at);
                long size = node.sizes()[i];
                if (size > 0) {
                    MemorySegment.copy(HostPointers.bytes(node.addresses()[i], size), 0, target, at, size);
                }
                buffers.add(new BatchMessage.Buffer(handle, base + at, size));
                at += size;
            }
            out.add(new BatchMessage.Node(node.length(), node.nullCount(), node.offset(), buffers, node.childCount(), node.hasDictionary()));
        }
        return out;
    }

    private static long align(long offset) {
        return (offset + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
