package dev.quiver.flight;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The batches of {@link FlightThroughput}: one column, int64 (8 bytes a row) or utf8 (12-byte strings and their
 * int32 offsets, 16 bytes a row), of about the size asked for.
 */
final class BenchBatches {
    /** The column types measured. */
    static final List<String> TYPES = List.of("int64", "utf8");

    private BenchBatches() {}

    /**
     * @param type      {@code int64} or {@code utf8}
     * @param bytes     the batch's size in buffer bytes (rounded down to whole rows)
     * @param allocator pays for the vectors until the root is closed
     * @return the batch, owned by the caller
     */
    static VectorSchemaRoot batch(String type, long bytes, BufferAllocator allocator) {
        return switch (type) {
            case "int64" -> {
                int rows = Math.toIntExact(bytes / Long.BYTES);
                BigIntVector id = new BigIntVector("id", allocator);
                id.allocateNew(rows);
                for (int r = 0; r < rows; r++) {
                    id.set(r, r);
                }
                yield root(new VectorSchemaRoot(List.of(id)), rows);
            }
            case "utf8" -> {
                int rows = Math.toIntExact(bytes / 16);
                VarCharVector name = new VarCharVector("name", allocator);
                name.allocateNew(rows * 12L, rows);
                for (int r = 0; r < rows; r++) {
                    name.set(r, String.format(Locale.ROOT, "s%011d", r).getBytes(StandardCharsets.US_ASCII));
                }
                yield root(new VectorSchemaRoot(List.of(name)), rows);
            }
            default -> throw new IllegalArgumentException("no bench type " + type);
        };
    }

    private static VectorSchemaRoot root(VectorSchemaRoot root, int rows) {
        root.setRowCount(rows);
        return root;
    }

    /** {@return the name of the stream of {@code type} batches of {@code mib} MiB on {@code path} (plain or quiver)} */
    static String name(String path, String type, int mib) {
        return path + "/" + type + "/" + mib;
    }
}
