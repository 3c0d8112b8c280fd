package dev.quiver.flight;

import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * The Arrow Java schema a Quiver struct field becomes on the wire, found the way batches take it: an empty
 * array of the field goes through the same import as every batch (see {@link HostBatch#of}), so the schema
 * a server announces is exactly the one its batches carry.
 */
final class ArrowSchemas {
    private ArrowSchemas() {}

    /**
     * @param schema    a struct field
     * @param allocator pays for the transient empty batch
     * @return the Arrow Java schema, with the dictionary ids Arrow Java gives the encoded fields
     * @throws IllegalArgumentException if the field is not a struct or Arrow Java cannot take one of its types
     */
    static Schema of(Field schema, BufferAllocator allocator) {
        try (HostBatch empty = HostBatch.of(HostVector.of(schema, List.of()).toDeviceArray(), allocator)) {
            return empty.root().getSchema();
        }
    }
}
