package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Writes exported ArrowArray / ArrowDeviceArray / ArrowSchema trees. The caller supplies the top-level
 * struct; the child structs and pointer arrays of a tree live in one C heap block. Every node gets our
 * release callback and, in {@code private_data}, the tree's id in the {@link ExportTable}, which frees the
 * block and runs the tree's owner once the last node is released, on that release's thread. Writing one
 * tree is confined to the calling thread.
 */
public final class StructWriter {
    private static final long ARRAY_SIZE = ArrowArrayLayout.LAYOUT.byteSize();
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    private StructWriter() {}

    /**
     * Writes an ArrowDeviceArray from a Java description of the tree.
     *
     * @param target     128 bytes to fill; its {@code reserved} bytes are zeroed
     * @param data       the array tree
     * @param deviceType the {@code ARROW_DEVICE_*} code
     * @param deviceId   the device id (-1 for CPU)
     * @param syncEvent  pointer to the event, or NULL
     * @param free       frees what the tree owns besides its structs (buffers, event); runs exactly once,
     *                   on the thread of the last release; not run if writing fails
     */
    public static void writeDeviceArray(MemorySegment target, ArrayData data, int deviceType, long deviceId,
                                        MemorySegment syncEvent, Runnable free) {
        export(target.address(), counts(data), deviceType, deviceId, syncEvent, free, data, 0);
    }

    /**
     * Writes an ArrowDeviceArray that describes the same memory as an existing, validated ArrowArray tree:
     * same lengths, offsets and buffer pointers, new structs (a zero-copy view).
     *
     * @param target     the address of 128 bytes to fill; its {@code reserved} bytes are zeroed
     * @param source     the address of a live, validated ArrowArray whose tree stays alive while the view is written
     * @param deviceType the {@code ARROW_DEVICE_*} code
     * @param deviceId   the device id (-1 for CPU)
     * @param syncEvent  pointer to the event, or NULL
     * @param owner      runs exactly once, on the thread of the last release (it lets go of the source);
     *                   not run if writing fails
     */
    public static void writeView(long target, long source, int deviceType, long deviceId,
                                 MemorySegment syncEvent, Runnable owner) {
        export(target, viewCounts(source), deviceType, deviceId, syncEvent, owner, null, source);
    }

    /**
     * Registers a tree of {@code counts} nodes and pointers with the export table, then writes its header and
     * its nodes: from {@code data}, or else copied from the ArrowArray at {@code source}. If writing fails the
     * tree is discarded and {@code owner} is not run.
     */
    private static void export(long target, long counts, int deviceType, long deviceId, MemorySegment syncEvent,
                               Runnable owner, ArrayData data, long source) {
        long nodes = counts >>> 32;
        long block = block((nodes - 1) * ARRAY_SIZE + (counts & 0xFFFF_FFFFL) * Long.BYTES);
        long id = ExportTable.register(owner, block, Math.toIntExact(nodes));
        try {
            header(target, deviceType, deviceId, syncEvent.address());
            long array = target + ArrowDeviceArrayLayout.ARRAY;
            if (data != null) {
                write(array, data, block, id);
            } else {
                copy(array, source, block, id);
            }
        } catch (RuntimeException | Error e) {
            ExportTable.discard(id);
            throw e;
        }
    }

    /**
     * Writes an ArrowSchema tree for {@code field}, from an image made once per field (see
     * {@link SchemaImage}).
     *
     * @param target 72 bytes to fill
     * @param field  the field to describe
     */
    public static void writeSchema(MemorySegment target, Field field) {
        writeSchema(target.address(), field);
    }

    /**
     * Writes an ArrowSchema tree for {@code field} at a raw address, as {@link #writeSchema(MemorySegment, Field)} does.
     *
     * @param target the address of 72 bytes to fill
     * @param field  the field to describe
     */
    public static void writeSchema(long target, Field field) {
        SchemaImage.of(field).writeTo(target);
    }

    private static long block(long bytes) {
        return bytes == 0 ? 0 : NativeHeap.malloc(bytes);
    }

    /** Zeroes the ArrowDeviceArray's padding and reserved bytes and sets its device members. */
    private static void header(long target, int deviceType, long deviceId, long syncEvent) {
        for (long at = ARRAY_SIZE; at < DEVICE_ARRAY_SIZE; at += Long.BYTES) {
            RawMemory.setLong(target + at, 0);
        }
        RawMemory.setLong(target + ArrowDeviceArrayLayout.DEVICE_ID, deviceId);
        RawMemory.setInt(target + ArrowDeviceArrayLayout.DEVICE_TYPE, deviceType);
        RawMemory.setAddress(target + ArrowDeviceArrayLayout.SYNC_EVENT, syncEvent);
    }

    /** @return the nodes (high 32 bits) and the buffer and child pointers (low 32 bits) of the tree {@code data} */
    private static long counts(ArrayData data) {
        long counts = 1L << 32 | (data.buffers().size() + data.children().size());
        for (ArrayData child : data.children()) {
            counts = add(counts, counts(child));
        }
        return data.dictionary() == null ? counts : add(counts, counts(data.dictionary()));
    }

    /** Writes node {@code data} at {@code target}, its pointer arrays and descendants from {@code free}; returns the new free. */
    private static long write(long target, ArrayData data, long free, long id) {
        List<MemorySegment> buffers = data.buffers();
        List<ArrayData> children = data.children();
        RawMemory.setLong(target + ArrowArrayLayout.LENGTH, data.length());
        RawMemory.setLong(target + ArrowArrayLayout.NULL_COUNT, data.nullCount());
        RawMemory.setLong(target + ArrowArrayLayout.OFFSET, data.offset());
        RawMemory.setLong(target + ArrowArrayLayout.N_BUFFERS, buffers.size());
        RawMemory.setLong(target + ArrowArrayLayout.N_CHILDREN, children.size());
        long bufferPointers = buffers.isEmpty() ? 0 : free;
        for (MemorySegment buffer : buffers) {
            RawMemory.setAddress(free, buffer.address());
            free += Long.BYTES;
        }
        RawMemory.setAddress(target + ArrowArrayLayout.BUFFERS, bufferPointers);
        long childPointers = children.isEmpty() ? 0 : free;
        free += (long) children.size() * Long.BYTES;
        for (int i = 0; i < children.size(); i++) {
            long child = free;
            RawMemory.setAddress(childPointers + (long) i * Long.BYTES, child);
            free = write(child, children.get(i), free + ARRAY_SIZE, id);
        }
        RawMemory.setAddress(target + ArrowArrayLayout.CHILDREN, childPointers);
        long dictionary = 0;
        if (data.dictionary() != null) {
            dictionary = free;
            free = write(dictionary, data.dictionary(), free + ARRAY_SIZE, id);
        }
        RawMemory.setAddress(target + ArrowArrayLayout.DICTIONARY, dictionary);
        RawMemory.setAddress(target + ArrowArrayLayout.PRIVATE_DATA, id);
        RawMemory.setAddress(target + ArrowArrayLayout.RELEASE, ReleaseCallbacks.arrayReleaseAddress());
        return free;
    }

    /** @return the nodes (high 32 bits) and the buffer and child pointers (low 32 bits) of the tree at {@code array} */
    private static long viewCounts(long array) {
        long n = RawMemory.getLong(array + ArrowArrayLayout.N_CHILDREN);
        long counts = 1L << 32 | (RawMemory.getLong(array + ArrowArrayLayout.N_BUFFERS) + n);
        long children = RawMemory.getAddress(array + ArrowArrayLayout.CHILDREN);
        for (long i = 0; i < n; i++) {
            counts = add(counts, viewCounts(RawMemory.getAddress(children + i * Long.BYTES)));
        }
        long dictionary = RawMemory.getAddress(array + ArrowArrayLayout.DICTIONARY);
        return dictionary == 0 ? counts : add(counts, viewCounts(dictionary));
    }

    /** Adds two packed counts, refusing a tree too large to count in 31 bits each. */
    private static long add(long a, long b) {
        long nodes = (a >>> 32) + (b >>> 32);
        long pointers = (a & 0xFFFF_FFFFL) + (b & 0xFFFF_FFFFL);
        if (nodes > Integer.MAX_VALUE || pointers > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("array tree too large to export: " + nodes + " nodes, " + pointers + " pointers");
        }
        return nodes << 32 | pointers;
    }

    /** Writes a copy of node {@code source} at {@code target}, as {@link #write} does; returns the new free. */
    private static long copy(long target, long source, long free, long id) {
        long nBuffers = RawMemory.getLong(source + ArrowArrayLayout.N_BUFFERS);
        long nChildren = RawMemory.getLong(source + ArrowArrayLayout.N_CHILDREN);
        RawMemory.setLong(target + ArrowArrayLayout.LENGTH, RawMemory.getLong(source + ArrowArrayLayout.LENGTH));
        RawMemory.setLong(target + ArrowArrayLayout.NULL_COUNT, RawMemory.getLong(source + ArrowArrayLayout.NULL_COUNT));
        RawMemory.setLong(target + ArrowArrayLayout.OFFSET, RawMemory.getLong(source + ArrowArrayLayout.OFFSET));
        RawMemory.setLong(target + ArrowArrayLayout.N_BUFFERS, nBuffers);
        RawMemory.setLong(target + ArrowArrayLayout.N_CHILDREN, nChildren);
        long bufferPointers = nBuffers == 0 ? 0 : free;
        if (nBuffers > 0) {
            RawMemory.copyWords(RawMemory.getAddress(source + ArrowArrayLayout.BUFFERS), free, nBuffers * Long.BYTES);
            free += nBuffers * Long.BYTES;
        }
        RawMemory.setAddress(target + ArrowArrayLayout.BUFFERS, bufferPointers);
        long childPointers = nChildren == 0 ? 0 : free;
        long sourceChildren = RawMemory.getAddress(source + ArrowArrayLayout.CHILDREN);
        free += nChildren * Long.BYTES;
        for (long i = 0; i < nChildren; i++) {
            long child = free;
            RawMemory.setAddress(childPointers + i * Long.BYTES, child);
            free = copy(child, RawMemory.getAddress(sourceChildren + i * Long.BYTES), free + ARRAY_SIZE, id);
        }
        RawMemory.setAddress(target + ArrowArrayLayout.CHILDREN, childPointers);
        long sourceDictionary = RawMemory.getAddress(source + ArrowArrayLayout.DICTIONARY);
        long dictionary = 0;
        if (sourceDictionary != 0) {
            dictionary = free;
            free = copy(dictionary, sourceDictionary, free + ARRAY_SIZE, id);
        }
        RawMemory.setAddress(target + ArrowArrayLayout.DICTIONARY, dictionary);
        RawMemory.setAddress(target + ArrowArrayLayout.PRIVATE_DATA, id);
        RawMemory.setAddress(target + ArrowArrayLayout.RELEASE, ReleaseCallbacks.arrayReleaseAddress());
        return free;
    }

    /** Encodes metadata as the C Data Interface does: int32 count, then int32 length + bytes per key and value. */
    public static MemorySegment metadata(SegmentAllocator arena, Metadata metadata) {
        if (metadata.isEmpty()) {
            return MemorySegment.NULL;
        }
        byte[] encoded = SchemaImage.encodeMetadata(metadata);
        MemorySegment out = arena.allocate(encoded.length, 4);
        MemorySegment.copy(encoded, 0, out, JAVA_BYTE, 0, encoded.length);
        return out;
    }
}
