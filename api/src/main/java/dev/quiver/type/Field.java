package dev.quiver.type;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A named, typed column: what one {@code ArrowSchema} node describes. Immutable.
 *
 * <p>For a dictionary-encoded field, {@link #type()} is the integer <em>index</em> type (the schema's
 * format) and {@link #dictionary()} describes the values, exactly as the C Data Interface puts them.
 *
 * @param name       the field name; may be empty, never null
 * @param type       the data type (for dictionary-encoded fields, the index type)
 * @param nullable   whether values may be null ({@code ARROW_FLAG_NULLABLE})
 * @param children   child fields of nested types, in order
 * @param metadata   key/value metadata, preserved exactly
 * @param dictionary the dictionary encoding, or null when not encoded
 */
public record Field(String name, ArrowType type, boolean nullable, List<Field> children, Metadata metadata,
                    DictionaryEncoding dictionary) {

    /**
     * How a field is dictionary-encoded.
     *
     * @param values  the field of the dictionary values
     * @param ordered whether the dictionary order is meaningful ({@code ARROW_FLAG_DICTIONARY_ORDERED})
     */
    public record DictionaryEncoding(Field values, boolean ordered) {
        /** Checks the values field. */
        public DictionaryEncoding {
            Objects.requireNonNull(values, "values");
        }
    }

    /** Copies the children and checks them against the type. */
    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(metadata, "metadata");
        children = List.copyOf(children);
        int expected = BufferLayout.of(type).childCount();
        if (expected >= 0 && children.size() != expected) {
            throw new IllegalArgumentException(type.format() + " needs " + expected + " child field(s), got " + children.size());
        }
        if (dictionary != null && !(type instanceof ArrowType.Int)) {
            throw new IllegalArgumentException("a dictionary index type must be an integer, not " + type.format());
        }
        if (type instanceof ArrowType.MapType) {
            Field entries = children.getFirst();
            if (!(entries.type() instanceof ArrowType.Struct) || entries.children().size() != 2) {
                throw new IllegalArgumentException("a map's child must be a struct of key and value, not " + entries.type().format()
                        + " with " + entries.children().size() + " children");
            }
        }
        if (type instanceof ArrowType.RunEndEncoded && !(children.getFirst().type() instanceof ArrowType.Int i
                && i.signed() && i.bitWidth() >= 16)) {
            throw new IllegalArgumentException("run ends must be int16, int32 or int64, not " + children.getFirst().type().format());
        }
    }

    /**
     * {@return a field without children or metadata}
     * @param name     the field name
     * @param type     a type without children
     * @param nullable nullability
     */
    public static Field of(String name, ArrowType type, boolean nullable) {
        return new Field(name, type, nullable, List.of(), Metadata.EMPTY, null);
    }

    /**
     * {@return a field without metadata}
     * @param name     the field name
     * @param type     the type
     * @param nullable nullability
     * @param children child fields
     */
    public static Field of(String name, ArrowType type, boolean nullable, List<Field> children) {
        return new Field(name, type, nullable, children, Metadata.EMPTY, null);
    }

    /**
     * {@return a list field}
     * @param name     the field name
     * @param nullable nullability
     * @param element  the element field
     */
    public static Field list(String name, boolean nullable, Field element) {
        return of(name, ArrowType.list(), nullable, List.of(element));
    }

    /**
     * {@return a struct field}
     * @param name     the field name
     * @param nullable nullability
     * @param members  the member fields
     */
    public static Field struct(String name, boolean nullable, List<Field> members) {
        return of(name, ArrowType.struct(), nullable, members);
    }

    /**
     * {@return this field with {@code metadata}}
     * @param metadata new metadata
     */
    public Field withMetadata(Metadata metadata) {
        return new Field(name, type, nullable, children, metadata, dictionary);
    }

    /**
     * {@return this field with {@code metadata}}
     * @param metadata new metadata, as UTF-8 strings
     */
    public Field withMetadata(Map<String, String> metadata) {
        return withMetadata(Metadata.of(metadata));
    }

    /**
     * {@return this field, dictionary-encoded}
     * @param encoding the dictionary encoding; this field's type becomes the index type
     */
    public Field withDictionary(DictionaryEncoding encoding) {
        return new Field(name, type, nullable, children, metadata, encoding);
    }

    /** {@return the extension type name ({@code ARROW:extension:name}), if this field has one} */
    public Optional<String> extensionName() {
        return metadata.get(Metadata.EXTENSION_NAME);
    }

    /** {@return the extension type metadata ({@code ARROW:extension:metadata}), if present} */
    public Optional<String> extensionMetadata() {
        return metadata.get(Metadata.EXTENSION_METADATA);
    }

    /**
     * {@return the index of the first child of that name: the index {@code DeviceArray.child(int)} takes}
     * @param name a child's name
     * @throws java.util.NoSuchElementException naming the children there are
     */
    public int childIndex(String name) {
        for (int i = 0; i < children.size(); i++) {
            if (children.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new java.util.NoSuchElementException("field \"" + this.name + "\" has no child \"" + name + "\"; its children are "
                + children.stream().map(Field::name).toList());
    }
}
