package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;
import dev.quiver.type.FormatString;
import dev.quiver.type.Metadata;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reads a foreign ArrowSchema tree into a {@link Field}, checking it and naming the path of any fault.
 * Faults go to a {@link Faults} sink: import stops at the first, the conformance checker collects them all.
 */
public final class SchemaReader {
    /** Deepest nesting accepted on import. */
    public static final int MAX_DEPTH = 64;
    private static final long MAX_CHILDREN = 1 << 20;
    private static final int MAX_STRING = 1 << 20;
    /** The size of one ArrowSchema node. */
    static final long STRUCT_SIZE = ArrowSchemaLayout.LAYOUT.byteSize();
    /** The flags the C Data Interface defines; any other bit is a fault (and sends {@link SchemaKey} here). */
    static final long KNOWN_FLAGS = ArrowSchemaLayout.FLAG_DICTIONARY_ORDERED
            | ArrowSchemaLayout.FLAG_NULLABLE | ArrowSchemaLayout.FLAG_MAP_KEYS_SORTED;

    private final Faults faults;

    private SchemaReader(Faults faults) {
        this.faults = faults;
    }

    /**
     * @param schema  a live ArrowSchema
     * @param invalid makes the exception for the first fault from its field path ({@code schema...}) and rule
     * @return the field it describes
     */
    public static Field read(MemorySegment schema, BiFunction<String, String, ? extends RuntimeException> invalid) {
        return read(schema, "schema", Faults.throwing(invalid));
    }

    /**
     * Reads into a sink that may collect every fault.
     *
     * @param schema an ArrowSchema
     * @param path   the path of {@code schema} itself, for example {@code "schema"}
     * @param faults where faults go
     * @return the field, or null if a fault (reported) leaves the tree without a meaning
     */
    public static Field read(MemorySegment schema, String path, Faults faults) {
        return new SchemaReader(faults).node(Pointers.bytes(schema, STRUCT_SIZE), path, 0);
    }

    private Field node(MemorySegment schema, String path, int depth) {
        if (depth > MAX_DEPTH) {
            faults.report(Fault.SCHEMA_DEPTH, path, "nesting deeper than " + MAX_DEPTH + " levels");
            return null;
        }
        if (schema.get(ADDRESS, ArrowSchemaLayout.RELEASE).equals(MemorySegment.NULL)) {
            faults.report(Fault.SCHEMA_RELEASED, Paths.join(path, "release"), "is NULL: the schema is released");
            return null;
        }
        String format = format(schema, path);
        ArrowType type = format == null ? null : parse(format, path);
        String name = string(schema.get(ADDRESS, ArrowSchemaLayout.NAME), Paths.join(path, "name"));
        long flags = schema.get(JAVA_LONG, ArrowSchemaLayout.FLAGS);
        if ((flags & ~KNOWN_FLAGS) != 0) {
            faults.report(Fault.SCHEMA_FLAGS, Paths.join(path, "flags"), "unknown flag bits 0x" + Long.toHexString(flags & ~KNOWN_FLAGS));
        }
        if ((flags & ArrowSchemaLayout.FLAG_MAP_KEYS_SORTED) != 0 && type instanceof ArrowType.MapType) {
            type = new ArrowType.MapType(true);
        }
        boolean usable = type != null;
        Field.DictionaryEncoding dictionary = null;
        MemorySegment dictionaryPointer = schema.get(ADDRESS, ArrowSchemaLayout.DICTIONARY);
        if (!dictionaryPointer.equals(MemorySegment.NULL)) {
            if (type != null && !(type instanceof ArrowType.Int)) {
                faults.report(Fault.SCHEMA_DICTIONARY, Paths.join(path, "format"), "a dictionary-encoded field's format must be an integer index type, not \""
                        + format + "\"");
                usable = false;
            }
            Field values = faults.struct(dictionaryPointer, STRUCT_SIZE, Paths.join(path, "dictionary"))
                    ? node(Pointers.bytes(dictionaryPointer, STRUCT_SIZE), Paths.join(path, "dictionary"), depth + 1) : null;
            usable &= values != null;
            dictionary = values == null ? null : new Field.DictionaryEncoding(values, (flags & ArrowSchemaLayout.FLAG_DICTIONARY_ORDERED) != 0);
        }
        List<Field> children = children(schema, format, type, path, depth);
        usable &= children != null;
        Metadata metadata = decodeMetadata(schema.get(ADDRESS, ArrowSchemaLayout.METADATA), Paths.join(path, "metadata"));
        if (!usable || metadata == null) {
            return null;
        }
        try {
            return new Field(name == null ? "" : name, type, (flags & ArrowSchemaLayout.FLAG_NULLABLE) != 0, children, metadata, dictionary);
        } catch (IllegalArgumentException e) {
            faults.report(Fault.SCHEMA_CHILD_TYPE, Paths.join(path, "children"), e.getMessage());
            return null;
        }
    }

    /** @return the format string, or null (after reporting) */
    private String format(MemorySegment schema, String path) {
        MemorySegment pointer = schema.get(ADDRESS, ArrowSchemaLayout.FORMAT);
        if (pointer.equals(MemorySegment.NULL)) {
            faults.report(Fault.SCHEMA_FORMAT, Paths.join(path, "format"), "is NULL");
            return null;
        }
        return string(pointer, Paths.join(path, "format"));
    }

    /** @return the type the format names, or null (after reporting) */
    private ArrowType parse(String format, String path) {
        try {
            return FormatString.parse(format);
        } catch (IllegalArgumentException e) {
            faults.report(Fault.SCHEMA_FORMAT, Paths.join(path, "format"), e.getMessage());
            return null;
        }
    }

    /** @return the child fields, or null (after reporting) if any is unusable */
    private List<Field> children(MemorySegment schema, String format, ArrowType type, String path, int depth) {
        long n = schema.get(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN);
        if (n < 0 || n > MAX_CHILDREN) {
            faults.report(Fault.SCHEMA_CHILD_COUNT, Paths.join(path, "n_children"), "is " + n + ", must be 0.." + MAX_CHILDREN);
            return null;
        }
        int expected = type == null ? -1 : BufferLayout.of(type).childCount();
        if (expected >= 0 && n != expected) {
            faults.report(Fault.SCHEMA_CHILD_COUNT, Paths.join(path, "n_children"),
                    "is " + n + " but format \"" + format + "\" needs " + expected);
            return null;
        }
        MemorySegment pointers = schema.get(ADDRESS, ArrowSchemaLayout.CHILDREN);
        if (n > 0 && pointers.equals(MemorySegment.NULL)) {
            faults.report(Fault.SCHEMA_CHILD_NULL, Paths.join(path, "children"), "is NULL but n_children is " + n);
            return null;
        }
        if (n > 0 && !faults.struct(pointers, n * ADDRESS.byteSize(), Paths.join(path, "children"))) {
            return null;
        }
        pointers = Pointers.pointers(pointers, n);
        List<Field> children = new ArrayList<>((int) n);
        boolean usable = true;
        for (long i = 0; i < n; i++) {
            String childPath = Paths.index(path, "children", i);
            MemorySegment child = pointers.getAtIndex(ADDRESS, i);
            Field field = null;
            if (child.equals(MemorySegment.NULL)) {
                faults.report(Fault.SCHEMA_CHILD_NULL, childPath, "is NULL");
            } else if (faults.struct(child, STRUCT_SIZE, childPath)) {
                field = node(Pointers.bytes(child, STRUCT_SIZE), childPath, depth + 1);
            }
            usable &= field != null;
            children.add(field);
        }
        return usable ? children : null;
    }

    /** @return the NUL-terminated string, null for a NULL pointer or (after reporting) an unreadable one */
    private String string(MemorySegment pointer, String path) {
        if (pointer.equals(MemorySegment.NULL)) {
            return null;
        }
        long length = faults.terminator(pointer.address(), MAX_STRING + 1L);
        long readable = -1 - length;
        if (length >= 0) {
            return new String(Pointers.bytes(pointer, length).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
        }
        if (readable == 0) {
            faults.readable(pointer, 1, path);
        } else if (readable > MAX_STRING) {
            faults.report(Fault.SCHEMA_STRING, path, "string longer than " + MAX_STRING + " bytes");
        } else {
            faults.report(Fault.POINTER_UNREADABLE, path, "string at 0x" + Long.toHexString(pointer.address())
                    + " runs into unreadable memory without a NUL terminator");
        }
        return null;
    }

    /**
     * Decodes metadata encoded as the C Data Interface does ({@code ArrowSchema.metadata}).
     *
     * @param pointer the encoded metadata, or NULL
     * @param path    the field path to name in errors
     * @param invalid makes the exception thrown if a count or length is out of range
     * @return the pairs in their encoded order; empty for NULL
     */
    public static Metadata metadata(MemorySegment pointer, String path, BiFunction<String, String, ? extends RuntimeException> invalid) {
        return new SchemaReader(Faults.throwing(invalid)).decodeMetadata(pointer, path);
    }

    /** @return the metadata, or null (after reporting) if its encoding is broken */
    private Metadata decodeMetadata(MemorySegment pointer, String path) {
        if (pointer.equals(MemorySegment.NULL)) {
            return Metadata.EMPTY;
        }
        MetadataBytes in = new MetadataBytes(pointer.address());
        if (!in.reach(4)) {
            faults.readable(pointer, 4, path);
            return null;
        }
        int count = in.getInt(0);
        if (count < 0 || count > MAX_CHILDREN) {
            faults.report(Fault.SCHEMA_METADATA, path, "pair count " + count + " is out of range");
            return null;
        }
        List<Metadata.Entry> entries = new ArrayList<>();
        long at = 4;
        for (int i = 0; i < count; i++) {
            byte[] key = bytes(in, at, path, "key " + i);
            if (key == null) {
                return null;
            }
            at += 4 + key.length;
            byte[] value = bytes(in, at, path, "value " + i);
            if (value == null) {
                return null;
            }
            at += 4 + value.length;
            entries.add(new Metadata.Entry(key, value));
        }
        return Metadata.of(entries);
    }

    private byte[] bytes(MetadataBytes in, long at, String path, String what) {
        if (!in.reach(at + 4)) {
            faults.report(Fault.SCHEMA_METADATA, path, what + " runs past readable memory");
            return null;
        }
        int length = in.getInt(at);
        if (length < 0 || length > MAX_STRING) {
            faults.report(Fault.SCHEMA_METADATA, path, what + " length " + length + " is out of range");
            return null;
        }
        if (!in.reach(at + 4 + length)) {
            faults.report(Fault.SCHEMA_METADATA, path, what + " runs past readable memory");
            return null;
        }
        return in.bytes(at + 4, length);
    }

    /** Encoded metadata, made readable in steps as the walk reaches further ({@link Faults#extend}). */
    private final class MetadataBytes {
        private final long address;
        private long readable;

        MetadataBytes(long address) {
            this.address = address;
        }

        /** @return whether the first {@code end} bytes may be read, growing what is known readable as needed */
        boolean reach(long end) {
            while (readable < end) {
                long more = faults.extend(address, readable, Integer.MAX_VALUE);
                if (more <= readable) {
                    return false;
                }
                readable = more;
            }
            return true;
        }

        int getInt(long at) {
            return Pointers.bytes(MemorySegment.ofAddress(address + at), 4).get(JAVA_INT.withByteAlignment(1), 0);
        }

        byte[] bytes(long at, int length) {
            return Pointers.bytes(MemorySegment.ofAddress(address + at), length).toArray(JAVA_BYTE);
        }
    }
}
