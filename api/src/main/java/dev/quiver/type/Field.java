package dev.quiver.type;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A named, typed column: what one {@code ArrowSchema} node describes.
 *
 * @param name     the field name; may be empty, never null
 * @param type     the data type
 * @param nullable whether values may be null ({@code ARROW_FLAG_NULLABLE})
 * @param children child fields of nested types (the list element, the struct members), in order
 * @param metadata key/value metadata in its encoded order
 */
public record Field(String name, ArrowType type, boolean nullable, List<Field> children, Map<String, String> metadata) {

    /** Copies the collections and checks the child count against the type. */
    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        children = List.copyOf(children);
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        int expected = BufferLayout.of(type).childCount();
        if (expected >= 0 && children.size() != expected) {
            throw new IllegalArgumentException(type.format() + " needs " + expected + " child field(s), got " + children.size());
        }
    }

    /**
     * @param name     the field name
     * @param type     a type without children
     * @param nullable nullability
     * @return a field without children or metadata
     */
    public static Field of(String name, ArrowType type, boolean nullable) {
        return new Field(name, type, nullable, List.of(), Map.of());
    }

    /**
     * @param name     the field name
     * @param nullable nullability
     * @param element  the element field
     * @return a list field
     */
    public static Field list(String name, boolean nullable, Field element) {
        return new Field(name, ArrowType.list(), nullable, List.of(element), Map.of());
    }

    /**
     * @param name     the field name
     * @param nullable nullability
     * @param members  the member fields
     * @return a struct field
     */
    public static Field struct(String name, boolean nullable, List<Field> members) {
        return new Field(name, ArrowType.struct(), nullable, members, Map.of());
    }
}
