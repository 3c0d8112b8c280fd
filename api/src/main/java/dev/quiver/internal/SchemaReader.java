package dev.quiver.internal;

import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;
import dev.quiver.type.FormatString;
import dev.quiver.type.Metadata;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Reads a foreign ArrowSchema tree into a {@link Field}, checking it and naming the path of any fault. */
public final class SchemaReader {
    /** Deepest nesting accepted on import. */
    public static final int MAX_DEPTH = 64;
    private static final long MAX_CHILDREN = 1 << 20;
    private static final int MAX_STRING = 1 << 20;
    private static final long KNOWN_FLAGS = ArrowSchemaLayout.FLAG_DICTIONARY_ORDERED
            | ArrowSchemaLayout.FLAG_NULLABLE | ArrowSchemaLayout.FLAG_MAP_KEYS_SORTED;

    private SchemaReader() {}

    /**
     * @param schema a live ArrowSchema
     * @return the field it describes
     * @throws InvalidArrowException naming the path ({@code schema...}) of the first fault
     */
    public static Field read(MemorySegment schema) {
        return read(schema.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), "schema", 0);
    }

    private static Field read(MemorySegment schema, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new InvalidArrowException(path, "nesting deeper than " + MAX_DEPTH + " levels");
        }
        if (schema.get(ADDRESS, ArrowSchemaLayout.RELEASE).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "release"), "is NULL: the schema is released");
        }
        String format = string(schema.get(ADDRESS, ArrowSchemaLayout.FORMAT), Paths.join(path, "format"));
        if (format == null) {
            throw new InvalidArrowException(Paths.join(path, "format"), "is NULL");
        }
        ArrowType type;
        try {
            type = FormatString.parse(format);
        } catch (IllegalArgumentException e) {
            throw new InvalidArrowException(Paths.join(path, "format"), e.getMessage());
        }
        String name = string(schema.get(ADDRESS, ArrowSchemaLayout.NAME), Paths.join(path, "name"));
        long flags = schema.get(JAVA_LONG, ArrowSchemaLayout.FLAGS);
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new InvalidArrowException(Paths.join(path, "flags"), "unknown flag bits 0x" + Long.toHexString(flags & ~KNOWN_FLAGS));
        }
        if ((flags & ArrowSchemaLayout.FLAG_MAP_KEYS_SORTED) != 0 && type instanceof ArrowType.MapType) {
            type = new ArrowType.MapType(true);
        }
        MemorySegment dictionaryPointer = schema.get(ADDRESS, ArrowSchemaLayout.DICTIONARY);
        Field.DictionaryEncoding dictionary = null;
        if (!dictionaryPointer.equals(MemorySegment.NULL)) {
            if (!(type instanceof ArrowType.Int)) {
                throw new InvalidArrowException(Paths.join(path, "format"), "a dictionary-encoded field's format must be an integer index type, not \"" + format + "\"");
            }
            Field values = read(dictionaryPointer.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), Paths.join(path, "dictionary"), depth + 1);
            dictionary = new Field.DictionaryEncoding(values, (flags & ArrowSchemaLayout.FLAG_DICTIONARY_ORDERED) != 0);
        }
        long n = schema.get(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN);
        if (n < 0 || n > MAX_CHILDREN) {
            throw new InvalidArrowException(Paths.join(path, "n_children"), "is " + n + ", must be 0.." + MAX_CHILDREN);
        }
        int expected = BufferLayout.of(type).childCount();
        if (expected >= 0 && n != expected) {
            throw new InvalidArrowException(Paths.join(path, "n_children"),
                    "is " + n + " but format \"" + format + "\" needs " + expected);
        }
        MemorySegment pointers = schema.get(ADDRESS, ArrowSchemaLayout.CHILDREN);
        if (n > 0 && pointers.equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "children"), "is NULL but n_children is " + n);
        }
        pointers = pointers.reinterpret(n * ADDRESS.byteSize());
        List<Field> children = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            String childPath = Paths.index(path, "children", i);
            MemorySegment child = pointers.getAtIndex(ADDRESS, i);
            if (child.equals(MemorySegment.NULL)) {
                throw new InvalidArrowException(childPath, "is NULL");
            }
            children.add(read(child.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), childPath, depth + 1));
        }
        Metadata metadata = metadata(schema.get(ADDRESS, ArrowSchemaLayout.METADATA), Paths.join(path, "metadata"));
        try {
            return new Field(name == null ? "" : name, type, (flags & ArrowSchemaLayout.FLAG_NULLABLE) != 0, children, metadata, dictionary);
        } catch (IllegalArgumentException e) {
            throw new InvalidArrowException(Paths.join(path, "children"), e.getMessage());
        }
    }

    private static String string(MemorySegment pointer, String path) {
        if (pointer.equals(MemorySegment.NULL)) {
            return null;
        }
        MemorySegment bytes = pointer.reinterpret(MAX_STRING + 1L);
        long length = 0;
        while (length <= MAX_STRING && bytes.get(JAVA_BYTE, length) != 0) {
            length++;
        }
        if (length > MAX_STRING) {
            throw new InvalidArrowException(path, "string longer than " + MAX_STRING + " bytes");
        }
        return new String(bytes.asSlice(0, length).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /**
     * Decodes metadata encoded as the C Data Interface does ({@code ArrowSchema.metadata}).
     *
     * @param pointer the encoded metadata, or NULL
     * @param path    the field path to name in errors
     * @return the pairs in their encoded order; empty for NULL
     * @throws InvalidArrowException if a count or length is out of range
     */
    public static Metadata metadata(MemorySegment pointer, String path) {
        if (pointer.equals(MemorySegment.NULL)) {
            return Metadata.EMPTY;
        }
        MemorySegment in = pointer.reinterpret(Integer.MAX_VALUE);
        int count = in.get(JAVA_INT.withByteAlignment(1), 0);
        if (count < 0 || count > MAX_CHILDREN) {
            throw new InvalidArrowException(path, "pair count " + count + " is out of range");
        }
        List<Metadata.Entry> entries = new ArrayList<>();
        long at = 4;
        for (int i = 0; i < count; i++) {
            byte[] key = bytes(in, at, path, "key " + i);
            at += 4 + key.length;
            byte[] value = bytes(in, at, path, "value " + i);
            at += 4 + value.length;
            entries.add(new Metadata.Entry(key, value));
        }
        return Metadata.of(entries);
    }

    private static byte[] bytes(MemorySegment in, long at, String path, String what) {
        int length = in.get(JAVA_INT.withByteAlignment(1), at);
        if (length < 0 || length > MAX_STRING) {
            throw new InvalidArrowException(path, what + " length " + length + " is out of range");
        }
        return in.asSlice(at + 4, length).toArray(JAVA_BYTE);
    }
}
