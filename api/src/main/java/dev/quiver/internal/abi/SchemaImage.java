package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The ArrowSchema tree of one {@link Field}, laid out once as words: the nodes, child pointer arrays,
 * format and name strings and metadata, with pointers stored as offsets from the start. Exporting the
 * schema then costs one C allocation and one pass that copies the words, turning offsets into addresses,
 * then each node's id and release, instead of encoding every string again; the same passes, reading, tell
 * whether a tree is still exactly as written ({@link #isWrittenAt}). Images of recently exported
 * fields are kept in a small table keyed by the field's identity. Immutable; thread-safe.
 */
final class SchemaImage {
    private static final int NODE = (int) ArrowSchemaLayout.LAYOUT.byteSize();
    private static final int CACHED = 64;
    private static final AtomicReferenceArray<SchemaImage> RECENT = new AtomicReferenceArray<>(CACHED);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private static final int NODE_WORDS = NODE / Long.BYTES;

    private final Field field;
    /** The tree as native-order words, node 0 (the top level) first; pointers hold offsets from the start. */
    private final long[] words;
    /** Per word, 1 for a non-NULL pointer (to which the block's address is added), else 0. */
    private final long[] relocate;
    /** Per word, 0 for a node's {@code private_data} and {@code release} (written per export), else all ones. */
    private final long[] fixed;
    /** Where the nodes lie (byte offsets), node 0 first. */
    private final int[] nodes;

    private SchemaImage(Field field, long[] words, long[] relocate, long[] fixed, int[] nodes) {
        this.field = field;
        this.words = words;
        this.relocate = relocate;
        this.fixed = fixed;
        this.nodes = nodes;
    }

    /** @return the field this image describes */
    Field field() {
        return field;
    }

    /** @return the image of {@code field}, made now or found among those of recently exported fields */
    static SchemaImage of(Field field) {
        int slot = System.identityHashCode(field) & (CACHED - 1);
        SchemaImage recent = RECENT.getPlain(slot);
        if (recent != null && recent.field == field) {
            return recent;
        }
        SchemaImage image = new Builder().build(field);
        RECENT.setRelease(slot, image);
        return image;
    }

    /**
     * Writes the tree: node 0 into {@code target}, the rest into a new C heap block registered in the
     * {@link ExportTable} (freed when every node is released).
     *
     * @param target the address of 72 writable bytes
     */
    void writeTo(long target) {
        long block = NativeHeap.malloc((long) words.length * Long.BYTES);
        long id = ExportTable.register(this, block, nodes.length);
        // node 0 goes straight to the target; the block's room for it is never read
        for (int i = 0; i < NODE_WORDS; i++) {
            RawMemory.setLong(target + (long) i * Long.BYTES, words[i] + relocate[i] * block);
        }
        for (int i = NODE_WORDS; i < words.length; i++) {
            RawMemory.setLong(block + (long) i * Long.BYTES, words[i] + relocate[i] * block);
        }
        long release = ReleaseCallbacks.schemaReleaseAddress();
        for (int n = 0; n < nodes.length; n++) {
            long node = n == 0 ? target : block + nodes[n];
            RawMemory.setAddress(node + ArrowSchemaLayout.PRIVATE_DATA, id);
            RawMemory.setAddress(node + ArrowSchemaLayout.RELEASE, release);
        }
    }

    /**
     * Whether the tree with top-level node {@code root} and the rest in {@code block} is exactly as
     * {@link #writeTo} wrote it under {@code id}: every string, count, flag and pointer, and every node
     * still ours and not released. The caller vouches that {@code block} is this image's live block.
     */
    boolean isWrittenAt(long root, long block, long id) {
        long differs = 0;
        for (int i = 0; i < NODE_WORDS; i++) {
            differs |= (RawMemory.getLong(root + (long) i * Long.BYTES) ^ (words[i] + relocate[i] * block)) & fixed[i];
        }
        // the block's own copy of node 0 is never read: node 0 lives where the consumer put it
        for (int i = NODE_WORDS; i < words.length; i++) {
            differs |= (RawMemory.getLong(block + (long) i * Long.BYTES) ^ (words[i] + relocate[i] * block)) & fixed[i];
        }
        if (differs != 0) {
            return false;
        }
        long release = ReleaseCallbacks.schemaReleaseAddress();
        for (int n = 0; n < nodes.length; n++) {
            long node = n == 0 ? root : block + nodes[n];
            if (RawMemory.getAddress(node + ArrowSchemaLayout.PRIVATE_DATA) != id
                    || RawMemory.getAddress(node + ArrowSchemaLayout.RELEASE) != release) {
                return false;
            }
        }
        return true;
    }

    /** Encodes metadata as the C Data Interface does: int32 count, then int32 length + bytes per key and value. */
    static byte[] encodeMetadata(Metadata metadata) {
        int size = 4;
        for (Metadata.Entry e : metadata.entries()) {
            size += 8 + e.key().length + e.value().length;
        }
        byte[] out = new byte[size];
        int at = putInt(out, 0, metadata.entries().size());
        for (Metadata.Entry e : metadata.entries()) {
            at = putBytes(out, at, e.key());
            at = putBytes(out, at, e.value());
        }
        return out;
    }

    private static int putBytes(byte[] out, int at, byte[] bytes) {
        at = putInt(out, at, bytes.length);
        System.arraycopy(bytes, 0, out, at, bytes.length);
        return at + bytes.length;
    }

    private static int putInt(byte[] out, int at, int value) {
        INTS.set(out, at, value);
        return at + 4;
    }

    /** Lays a field's tree out; used once per image, by one thread. */
    private static final class Builder {
        private byte[] out = new byte[256];
        private int size;
        private int[] pointers = new int[16];
        private int pointerCount;
        private int[] nodes = new int[4];
        private int nodeCount;

        SchemaImage build(Field field) {
            node(reserve(NODE, 8), field);
            long[] words = new long[(size + Long.BYTES - 1) / Long.BYTES];
            reserve(words.length * Long.BYTES - size, 1);
            for (int i = 0; i < words.length; i++) {
                words[i] = (long) LONGS.get(out, i * Long.BYTES);
            }
            long[] relocate = new long[words.length];
            for (int i = 0; i < pointerCount; i++) {
                relocate[pointers[i] / Long.BYTES] = 1;
            }
            long[] fixed = new long[words.length];
            Arrays.fill(fixed, -1L);
            for (int i = 0; i < nodeCount; i++) {
                fixed[(nodes[i] + (int) ArrowSchemaLayout.PRIVATE_DATA) / Long.BYTES] = 0;
                fixed[(nodes[i] + (int) ArrowSchemaLayout.RELEASE) / Long.BYTES] = 0;
            }
            return new SchemaImage(field, words, relocate, fixed, Arrays.copyOf(nodes, nodeCount));
        }

        private void node(int at, Field field) {
            if (nodeCount == nodes.length) {
                nodes = Arrays.copyOf(nodes, nodeCount * 2);
            }
            nodes[nodeCount++] = at;
            pointer(at + ArrowSchemaLayout.FORMAT, string(field.type().format()));
            pointer(at + ArrowSchemaLayout.NAME, string(field.name()));
            if (!field.metadata().isEmpty()) {
                byte[] metadata = encodeMetadata(field.metadata());
                int to = reserve(metadata.length, 8);
                System.arraycopy(metadata, 0, out, to, metadata.length);
                pointer(at + ArrowSchemaLayout.METADATA, to);
            }
            putLong(at + ArrowSchemaLayout.FLAGS, flags(field));
            List<Field> children = field.children();
            putLong(at + ArrowSchemaLayout.N_CHILDREN, children.size());
            if (!children.isEmpty()) {
                int array = reserve(children.size() * Long.BYTES, 8);
                pointer(at + ArrowSchemaLayout.CHILDREN, array);
                for (int i = 0; i < children.size(); i++) {
                    int child = reserve(NODE, 8);
                    pointer(array + i * Long.BYTES, child);
                    node(child, children.get(i));
                }
            }
            if (field.dictionary() != null) {
                int dictionary = reserve(NODE, 8);
                pointer(at + ArrowSchemaLayout.DICTIONARY, dictionary);
                node(dictionary, field.dictionary().values());
            }
        }

        private int string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            int at = reserve(utf8.length + 1, 1);
            System.arraycopy(utf8, 0, out, at, utf8.length);
            return at;
        }

        private void pointer(long at, int target) {
            putLong(at, target);
            if (pointerCount == pointers.length) {
                pointers = Arrays.copyOf(pointers, pointerCount * 2);
            }
            pointers[pointerCount++] = (int) at;
        }

        private void putLong(long at, long value) {
            LONGS.set(out, (int) at, value);
        }

        /** @return the offset of {@code bytes} new zero bytes aligned to {@code alignment} */
        private int reserve(int bytes, int alignment) {
            int at = (size + alignment - 1) & -alignment;
            int end = Math.addExact(at, bytes);
            if (end > out.length) {
                out = Arrays.copyOf(out, Math.max(end, out.length * 2));
            }
            size = end;
            return at;
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
    }
}
