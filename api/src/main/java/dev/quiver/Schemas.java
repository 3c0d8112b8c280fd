package dev.quiver;

import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Schemas alone through the C Data interface: a {@code struct ArrowSchema} read into a {@link Field}, and a field
 * written as one, for the places where a schema travels without data (a stream's schema, an Arrow Java
 * {@code Schema} exported by its C Data module, a catalogue). Stateless; any thread.
 */
public final class Schemas {
    private Schemas() {}

    /**
     * Moves an ArrowSchema in, reads the field it describes and releases it: the struct is released exactly once,
     * whatever fails. The checks are those of every import (formats, flags, names and metadata, children,
     * dictionaries, nesting depth), faults named by their path ({@code schema.children[1].format}).
     *
     * @param schema a live {@code struct ArrowSchema*}; left released (release NULL)
     * @param trust  whether the struct's pointers are trusted or checked against the process's readable mappings
     * @return the field
     * @throws InvalidArrowException    if the struct breaks the spec; it was released
     * @throws IllegalArgumentException if {@code schema} is NULL, heap memory or misaligned (the caller keeps it)
     */
    public static Field importFrom(MemorySegment schema, ProducerTrust trust) {
        return ArrayImports.importSchema(schema, Objects.requireNonNull(trust, "trust"));
    }

    /**
     * Writes {@code field} as an ArrowSchema the consumer owns and releases.
     *
     * @param field  the field
     * @param schema 72 writable bytes for the consumer's {@code struct ArrowSchema}
     * @throws IllegalArgumentException if {@code schema} is NULL, heap memory or too small
     */
    public static void exportTo(Field field, MemorySegment schema) {
        Objects.requireNonNull(field, "field");
        StructWriter.writeSchema(Pointers.writableStructAddress(schema, ArrowSchemaLayout.LAYOUT, "schema"), field);
    }
}
