package dev.quiver.share.internal.protocol;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.FormatString;
import dev.quiver.type.Metadata;

import java.util.ArrayList;
import java.util.List;

/**
 * The body of SCHEMA: an {@code ArrowSchema} tree written out field by field in pre-order (docs/SHARING.md,
 * "SCHEMA"). Each field is its format string, name, flags ({@code ARROW_FLAG_*}), metadata entries, children,
 * and the dictionary's value field if the field is dictionary-encoded. Decoding bounds nesting, field counts
 * and string sizes. Stateless.
 */
public final class SchemaCodec {
    private static final long FLAG_DICTIONARY_ORDERED = 1;
    private static final long FLAG_NULLABLE = 2;
    private static final long FLAG_MAP_KEYS_SORTED = 4;

    private SchemaCodec() {}

    /** {@return the SCHEMA body of {@code field}} @param field the schema's root field */
    public static byte[] encode(Field field) {
        ByteWriter out = new ByteWriter();
        write(out, field);
        return out.toByteArray();
    }

    private static void write(ByteWriter out, Field field) {
        long flags = (field.nullable() ? FLAG_NULLABLE : 0)
                | (field.dictionary() != null && field.dictionary().ordered() ? FLAG_DICTIONARY_ORDERED : 0)
                | (field.type() instanceof ArrowType.MapType map && map.keysSorted() ? FLAG_MAP_KEYS_SORTED : 0);
        out.string(FormatString.write(field.type())).string(field.name()).u64(flags);
        out.u32(field.metadata().entries().size());
        for (Metadata.Entry entry : field.metadata().entries()) {
            out.blob(entry.key()).blob(entry.value());
        }
        out.u32(field.children().size());
        for (Field child : field.children()) {
            write(out, child);
        }
        out.u32(field.dictionary() == null ? 0 : 1);
        if (field.dictionary() != null) {
            write(out, field.dictionary().values());
        }
    }

    /**
     * {@return the root field in a SCHEMA body}
     * @param body the received body
     * @throws ProtocolException naming the field path if a field is malformed or past the limits
     */
    public static Field decode(byte[] body) {
        ByteReader in = new ByteReader(body, "SCHEMA");
        int[] fields = {0};
        Field root = read(in, "schema", 0, fields);
        in.end();
        return root;
    }

    private static Field read(ByteReader in, String path, int depth, int[] fields) {
        if (depth > Limits.MAX_DEPTH) {
            throw new ProtocolException(ErrorCode.LIMIT, "SCHEMA: " + path + " is nested deeper than " + Limits.MAX_DEPTH);
        }
        if (++fields[0] > Limits.MAX_NODES) {
            throw new ProtocolException(ErrorCode.LIMIT, "SCHEMA has more than " + Limits.MAX_NODES + " fields");
        }
        String format = in.string(path + ".format");
        String name = in.string(path + ".name");
        long flags = in.u64(path + ".flags");
        int entries = in.count(Limits.MAX_METADATA, path + ".metadata count");
        List<Metadata.Entry> metadata = new ArrayList<>(entries);
        for (int i = 0; i < entries; i++) {
            metadata.add(new Metadata.Entry(in.blob(path + ".metadata[" + i + "].key"), in.blob(path + ".metadata[" + i + "].value")));
        }
        int childCount = in.count(Limits.MAX_NODES, path + ".n_children");
        List<Field> children = new ArrayList<>(Math.min(childCount, 64));
        for (int i = 0; i < childCount; i++) {
            children.add(read(in, path + ".children[" + i + "]", depth + 1, fields));
        }
        int hasDictionary = in.u32(path + ".has_dictionary");
        if (hasDictionary != 0 && hasDictionary != 1) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "SCHEMA: " + path + ".has_dictionary is " + hasDictionary + ", not 0 or 1");
        }
        Field dictionary = hasDictionary == 1 ? read(in, path + ".dictionary", depth + 1, fields) : null;
        try {
            ArrowType type = FormatString.parse(format);
            if (type instanceof ArrowType.MapType) {
                type = new ArrowType.MapType((flags & FLAG_MAP_KEYS_SORTED) != 0);
            }
            return new Field(name, type, (flags & FLAG_NULLABLE) != 0, children, Metadata.of(metadata),
                    dictionary == null ? null : new Field.DictionaryEncoding(dictionary, (flags & FLAG_DICTIONARY_ORDERED) != 0));
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "SCHEMA: " + path + " (format \"" + format + "\"): " + e.getMessage());
        }
    }
}
