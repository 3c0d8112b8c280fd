package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import dev.quiver.ProducerTrust;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Schema;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Schemas between the two type models, through the same C Data path as the data itself, so that a stream's
 * schema is exactly what its batches will carry: Arrow Java's {@code Schema} is exported by its C Data module and
 * read by {@link dev.quiver.Schemas#importFrom} (no data, no root), Quiver's field becomes Arrow Java's through an
 * import of an empty array of it. Stateless; any thread.
 */
public final class ArrowJavaSchemas {
    private ArrowJavaSchemas() {}

    /**
     * The Quiver field of a record batch with {@code schema}: a struct field named {@code ""} whose children are
     * the schema's fields, with the schema's metadata, exactly as a batch of it exports through the C Data
     * interface. A dictionary-encoded field takes its value type from {@code dictionaries}.
     *
     * @param schema       an Arrow Java schema
     * @param dictionaries the dictionaries of its encoded fields, or null if it has none
     * @param allocator    pays for the transient C struct
     * @return the field
     * @throws dev.quiver.InvalidArrowException if Arrow Java's export breaks the C Data interface (it is released)
     * @throws IllegalArgumentException         if a dictionary-encoded field has no dictionary in {@code dictionaries}
     */
    public static Field toField(Schema schema, DictionaryProvider dictionaries, BufferAllocator allocator) {
        try (ArrowSchema struct = ArrowSchema.allocateNew(allocator)) {
            try {
                Data.exportSchema(allocator, schema, dictionaries, struct);
            } catch (NullPointerException | IllegalStateException missing) {
                throw new IllegalArgumentException("a dictionary-encoded field of " + schema + " has no dictionary", missing);
            }
            return dev.quiver.Schemas.importFrom(MemorySegment.ofAddress(struct.memoryAddress()), ProducerTrust.TRUSTED);
        }
    }

    /**
     * @param root         a vector schema root (its rows are not read)
     * @param dictionaries the dictionaries of its encoded fields, or null
     * @param allocator    pays for the transient export
     * @return the Quiver field of the struct array the root exports as
     */
    static Field quiverField(VectorSchemaRoot root, DictionaryProvider dictionaries, BufferAllocator allocator) {
        return toField(root.getSchema(), dictionaries, allocator);
    }

    /**
     * @param field        a Quiver struct field
     * @param allocator    allocates the (empty) dictionary vectors
     * @param dictionaries receives an empty dictionary per encoded field
     * @return the Arrow Java schema of the field's children, with its metadata
     * @throws IllegalArgumentException if the field is not a struct
     */
    static Schema arrowJavaSchema(Field field, BufferAllocator allocator, CDataDictionaryProvider dictionaries) {
        try (Arena structs = Arena.ofConfined()) {
            MemorySegment deviceArray = CpuStructs.cpuDeviceArray(structs);
            MemorySegment schema = CpuStructs.schema(structs);
            try (DeviceArray empty = HostVector.of(field, List.of()).toDeviceArray()) {
                Interchange.exportDevice(empty, deviceArray, schema);
            }
            CpuStructs.embeddedArray(deviceArray).release();
            return Data.importSchema(allocator, CpuStructs.wrapSchema(schema), dictionaries);
        }
    }
}
