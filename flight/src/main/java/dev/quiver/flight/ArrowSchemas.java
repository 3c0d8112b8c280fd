package dev.quiver.flight;

import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Arrow Java schema a Quiver struct field becomes on the wire, found the way batches take it: an empty
 * array of the field goes through the same import as every batch (see {@link HostBatch#of}), so the schema
 * a server announces is exactly the one its batches carry.
 */
final class ArrowSchemas {
    private ArrowSchemas() {}

    /**
     * The schema in the IPC message form that {@code GetFlightInfo} and {@code ListFlights} carry: a
     * dictionary-encoded field has its dictionary's value type, with the dictionary id and index type in its
     * encoding (Arrow Java's vectors hold the index type in the field itself, which the IPC format does not).
     *
     * @param schema    a struct field
     * @param allocator pays for the transient empty batch
     * @return the Arrow Java schema, with the dictionary ids Arrow Java gives the encoded fields
     * @throws IllegalArgumentException if the field is not a struct or Arrow Java cannot take one of its types
     */
    static Schema of(Field schema, BufferAllocator allocator) {
        try (HostBatch empty = HostBatch.of(HostVector.of(schema, List.of()).toDeviceArray(), allocator)) {
            Schema inMemory = empty.root().getSchema();
            Set<Long> ids = new HashSet<>();
            List<org.apache.arrow.vector.types.pojo.Field> fields = inMemory.getFields().stream()
                    .map(field -> DictionaryUtility.toMessageFormat(field, empty.dictionaries(), ids))
                    .toList();
            return new Schema(fields, inMemory.getCustomMetadata());
        }
    }
}
