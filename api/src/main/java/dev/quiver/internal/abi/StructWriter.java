package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;

import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Writes exported ArrowArray / ArrowDeviceArray / ArrowSchema trees. Every node gets our release callback
 * and a {@code private_data} id into the export table; all nodes of one tree share one
 * {@link SharedRelease}, whose free action runs when the last node is released.
 */
public final class StructWriter {
    private StructWriter() {}

    /**
     * Writes an ArrowDeviceArray. The caller supplies the top-level struct; the child structs and pointer
     * arrays live in C heap blocks that the last release frees, after {@code free}.
     *
     * @param target     128 bytes to fill; its {@code reserved} bytes are zeroed
     * @param data       the array tree
     * @param deviceType the {@code ARROW_DEVICE_*} code
     * @param deviceId   the device id (-1 for CPU)
     * @param syncEvent  pointer to the event, or NULL
     * @param free       frees what the tree owns besides its structs (buffers, event); runs exactly once,
     *                   on the thread of the last release
     */
    public static void writeDeviceArray(MemorySegment target, ArrayData data, int deviceType, long deviceId,
                                        MemorySegment syncEvent, Runnable free) {
        NativeBlocks structs = new NativeBlocks();
        SharedRelease owner = new SharedRelease(() -> {
            try {
                free.run();
            } finally {
                structs.free();
            }
        });
        target.asSlice(0, ArrowDeviceArrayLayout.LAYOUT.byteSize()).fill((byte) 0);
        owner.retain(writeArray(target.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize()), data, structs, owner));
        target.set(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID, deviceId);
        target.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, deviceType);
        target.set(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT, syncEvent);
    }

    /** @return the number of nodes written */
    private static int writeArray(MemorySegment target, ArrayData data, SegmentAllocator structs, SharedRelease owner) {
        int nodes = 1;
        target.set(JAVA_LONG, ArrowArrayLayout.LENGTH, data.length());
        target.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, data.nullCount());
        target.set(JAVA_LONG, ArrowArrayLayout.OFFSET, data.offset());
        target.set(JAVA_LONG, ArrowArrayLayout.N_BUFFERS, data.buffers().size());
        target.set(JAVA_LONG, ArrowArrayLayout.N_CHILDREN, data.children().size());
        target.set(ADDRESS, ArrowArrayLayout.BUFFERS, pointerArray(structs, data.buffers()));
        List<ArrayData> children = data.children();
        MemorySegment childPointers = children.isEmpty() ? MemorySegment.NULL
                : structs.allocate(ADDRESS.byteSize() * children.size(), ADDRESS.byteAlignment());
        for (int i = 0; i < children.size(); i++) {
            MemorySegment child = structs.allocate(ArrowArrayLayout.LAYOUT);
            nodes += writeArray(child, children.get(i), structs, owner);
            childPointers.setAtIndex(ADDRESS, i, child);
        }
        target.set(ADDRESS, ArrowArrayLayout.CHILDREN, childPointers);
        MemorySegment dictionary = MemorySegment.NULL;
        if (data.dictionary() != null) {
            dictionary = structs.allocate(ArrowArrayLayout.LAYOUT);
            nodes += writeArray(dictionary, data.dictionary(), structs, owner);
        }
        target.set(ADDRESS, ArrowArrayLayout.DICTIONARY, dictionary);
        target.set(ADDRESS, ArrowArrayLayout.PRIVATE_DATA, owner.id());
        target.set(ADDRESS, ArrowArrayLayout.RELEASE, ReleaseCallbacks.arrayRelease());
        return nodes;
    }

    /**
     * Writes an ArrowSchema tree for {@code field}. Strings and child structs live in a new arena that
     * the last release closes.
     *
     * @param target 72 bytes to fill
     * @param field  the field to describe
     */
    public static void writeSchema(MemorySegment target, Field field) {
        NativeBlocks strings = new NativeBlocks();
        SharedRelease owner = new SharedRelease(strings::free);
        owner.retain(writeSchema(target, field, strings, owner));
    }

    /** @return the number of nodes written */
    private static int writeSchema(MemorySegment target, Field field, SegmentAllocator arena, SharedRelease owner) {
        int nodes = 1;
        target.set(ADDRESS, ArrowSchemaLayout.FORMAT, arena.allocateFrom(field.type().format()));
        target.set(ADDRESS, ArrowSchemaLayout.NAME, arena.allocateFrom(field.name()));
        target.set(ADDRESS, ArrowSchemaLayout.METADATA, metadata(arena, field.metadata()));
        target.set(JAVA_LONG, ArrowSchemaLayout.FLAGS, flags(field));
        List<Field> children = field.children();
        target.set(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN, children.size());
        MemorySegment childPointers = children.isEmpty() ? MemorySegment.NULL
                : arena.allocate(ADDRESS.byteSize() * children.size(), ADDRESS.byteAlignment());
        for (int i = 0; i < children.size(); i++) {
            MemorySegment child = arena.allocate(ArrowSchemaLayout.LAYOUT);
            nodes += writeSchema(child, children.get(i), arena, owner);
            childPointers.setAtIndex(ADDRESS, i, child);
        }
        target.set(ADDRESS, ArrowSchemaLayout.CHILDREN, childPointers);
        MemorySegment dictionary = MemorySegment.NULL;
        if (field.dictionary() != null) {
            dictionary = arena.allocate(ArrowSchemaLayout.LAYOUT);
            nodes += writeSchema(dictionary, field.dictionary().values(), arena, owner);
        }
        target.set(ADDRESS, ArrowSchemaLayout.DICTIONARY, dictionary);
        target.set(ADDRESS, ArrowSchemaLayout.PRIVATE_DATA, owner.id());
        target.set(ADDRESS, ArrowSchemaLayout.RELEASE, ReleaseCallbacks.schemaRelease());
        return nodes;
    }

    private static MemorySegment pointerArray(SegmentAllocator arena, List<MemorySegment> pointers) {
        if (pointers.isEmpty()) {
            return MemorySegment.NULL;
        }
        MemorySegment array = arena.allocate(ADDRESS.byteSize() * pointers.size(), ADDRESS.byteAlignment());
        for (int i = 0; i < pointers.size(); i++) {
            array.setAtIndex(ADDRESS, i, pointers.get(i));
        }
        return array;
    }

    private static long flags(Field field) {
        long flags = field.nullable() ? ArrowSchemaLayout.FLAG_NULLABLE : 0;
        if (field.dictionary() != null && field.dictionary().ordered()) {
            flags |= ArrowSchemaLayout.FLAG_DICTIONARY_ORDERED;
        }
        if (field.type() instanceof ArrowType.MapType map && map.keysSorted()) {
            flags |= ArrowSchemaLayout.FLAG_MAP_KEYS_SORTED;
        }
        return flags;
    }

    /** Encodes metadata as the C Data Interface does: int32 count, then int32 length + bytes per key and value. */
    public static MemorySegment metadata(SegmentAllocator arena, Metadata metadata) {
        if (metadata.isEmpty()) {
            return MemorySegment.NULL;
        }
        long size = 4;
        for (Metadata.Entry e : metadata.entries()) {
            size += 8 + e.key().length + e.value().length;
        }
        MemorySegment out = arena.allocate(size, 4);
        long at = 0;
        out.set(JAVA_INT.withByteAlignment(1), at, metadata.entries().size());
        at += 4;
        for (Metadata.Entry e : metadata.entries()) {
            at = putBytes(out, at, e.key());
            at = putBytes(out, at, e.value());
        }
        return out;
    }

    private static long putBytes(MemorySegment out, long at, byte[] bytes) {
        out.set(JAVA_INT.withByteAlignment(1), at, bytes.length);
        MemorySegment.copy(bytes, 0, out, JAVA_BYTE, at + 4, bytes.length);
        return at + 4 + bytes.length;
    }
}
