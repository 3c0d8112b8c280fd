package dev.quiver.share.internal.arrays;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.share.internal.posix.HostPointers;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Walks a CPU array's {@code ArrowArray} tree in pre-order (a node, its children, then its dictionary) into
 * {@link HostNode}s, with the size of every buffer worked out from the type, the node's offset and length,
 * and for strings and binaries the last offset (views: the variadic sizes buffer). The array was validated
 * when it was made or imported; the walk reads its own structs only. Stateless.
 */
public final class HostNodes {
    private HostNodes() {}

    /**
     * {@return the nodes of {@code array}, pre-order}
     * @param array an open CPU array, kept open by the caller during the walk
     */
    public static List<HostNode> of(DeviceArray array) {
        if (array.deviceType() != DeviceType.CPU) {
            throw new IllegalArgumentException("walking the buffers of a " + array.deviceType() + " array; copy it to the host first");
        }
        return of(array, (buffer, offset, size) -> HostPointers.bytes(buffer + offset, size));
    }

    /**
     * Reads bytes of the array's buffers, for the last offset of strings and the sizes of views. A buffer is
     * named by its pointer as the array's struct holds it and a byte offset into it, never by arithmetic on the
     * pointer (a device's pointer may be a handle, as a {@code VkBuffer} is).
     */
    @FunctionalInterface
    public interface BufferReads {
        /**
         * {@return {@code size} bytes at {@code offset} in a buffer, readable on the host}
         * @param buffer the buffer's pointer
         * @param offset bytes from its start
         * @param size   bytes to read
         */
        MemorySegment bytes(long buffer, long offset, long size);
    }

    /**
     * {@return the nodes of {@code array}, pre-order, its buffers' addresses as its structs hold them (device
     * pointers for a device array); the few bytes that sizes depend on are read with {@code reads}}
     * @param array an open array whose sync event was honoured, kept open by the caller during the walk
     * @param reads reads buffer bytes on the host
     */
    public static List<HostNode> of(DeviceArray array, BufferReads reads) {
        List<HostNode> nodes = new ArrayList<>();
        walk(Interchange.arrowArray(array), array.field(), nodes, reads);
        return nodes;
    }

    private static void walk(MemorySegment struct, Field field, List<HostNode> out, BufferReads reads) {
        long length = struct.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long nullCount = struct.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        long offset = struct.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        int bufferCount = (int) struct.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        int childCount = (int) struct.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        long dictionary = struct.get(ADDRESS, ArrowArrayLayout.DICTIONARY).address();
        long[] addresses = new long[bufferCount];
        if (bufferCount > 0) {
            MemorySegment pointers = HostPointers.bytes(struct.get(ADDRESS, ArrowArrayLayout.BUFFERS).address(), bufferCount * 8L);
            for (int i = 0; i < bufferCount; i++) {
                addresses[i] = pointers.get(JAVA_LONG, i * 8L);
            }
        }
        long[] sizes = sizes(field, offset + length, addresses, reads);
        boolean hasDictionary = dictionary != 0 && field.dictionary() != null;
        out.add(new HostNode(field, length, nullCount, offset, addresses, sizes, childCount, hasDictionary));
        if (childCount > 0) {
            MemorySegment children = HostPointers.bytes(struct.get(ADDRESS, ArrowArrayLayout.CHILDREN).address(), childCount * 8L);
            for (int i = 0; i < childCount; i++) {
                walk(HostPointers.bytes(children.get(JAVA_LONG, i * 8L), ArrowArrayLayout.LAYOUT.byteSize()),
                        field.children().get(i), out, reads);
            }
        }
        if (hasDictionary) {
            walk(HostPointers.bytes(dictionary, ArrowArrayLayout.LAYOUT.byteSize()), field.dictionary().values(), out, reads);
        }
    }

    private static long[] sizes(Field field, long slots, long[] addresses, BufferReads reads) {
        BufferLayout layout = BufferLayout.of(field.type());
        List<BufferLayout.Buffer> fixed = layout.buffers();
        long[] sizes = new long[addresses.length];
        for (int i = 0; i < addresses.length; i++) {
            if (addresses[i] == 0) {
                continue;
            }
            if (i < fixed.size()) {
                BufferLayout.Buffer buffer = fixed.get(i);
                sizes[i] = buffer.kind() == BufferLayout.Kind.DATA
                        ? lastOffset(addresses[i - 1], fixed.get(i - 1).bitWidth(), slots, reads)
                        : buffer.bytesFor(slots);
            } else if (i == addresses.length - 1) {
                sizes[i] = 8L * (addresses.length - fixed.size() - 1);   // the variadic sizes buffer
            } else {
                long sizesBuffer = addresses[addresses.length - 1];
                sizes[i] = reads.bytes(sizesBuffer, 0, 8L * (addresses.length - fixed.size() - 1))
                        .get(JAVA_LONG_UNALIGNED, 8L * (i - fixed.size()));
            }
        }
        return sizes;
    }

    private static long lastOffset(long offsets, int bitWidth, long slots, BufferReads reads) {
        if (offsets == 0) {
            return 0;
        }
        MemorySegment entry = reads.bytes(offsets, slots * (bitWidth / 8), bitWidth / 8);
        return bitWidth == 64 ? entry.get(JAVA_LONG_UNALIGNED, 0) : Integer.toUnsignedLong(entry.get(JAVA_INT_UNALIGNED, 0));
    }
}
