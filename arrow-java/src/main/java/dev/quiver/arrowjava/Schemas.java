package dev.quiver.arrowjava;

import dev.quiver.DeviceArray;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
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
 * schema is exactly what its batches will carry: Arrow Java's side is read from an export of the root
 * (zero-copy; no value is read), Quiver's side from an import of an empty array of the field.
 */
final class Schemas {
    private Schemas() {}

    /**
     * @param root         a vector schema root (its rows are not read)
     * @param dictionaries the dictionaries of its encoded fields, or null
     * @param allocator    pays for the transient export
     * @return the Quiver field of the struct array the root exports as
     */
    static Field quiverField(VectorSchemaRoot root, DictionaryProvider dictionaries, BufferAllocator allocator) {
        try (DeviceArray probe = VectorExport.toDeviceArray(root, dictionaries, allocator)) {
            return probe.field();
        }
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
                empty.exportTo(deviceArray, schema);
            }
            CpuStructs.embeddedArray(deviceArray).release();
            return Data.importSchema(allocator, CpuStructs.wrapSchema(schema), dictionaries);
        }
    }
}
