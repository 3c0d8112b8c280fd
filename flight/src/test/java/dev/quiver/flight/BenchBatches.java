package dev.quiver.flight;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The batches of {@link FlightThroughput}: an int64 id, a float64 value and a short utf8 name (null every
 * tenth row) per row, about 24 bytes of buffers per row.
 */
final class BenchBatches {
    private BenchBatches() {}

    /**
     * @param batch     the batch index
     * @param rows      rows per batch
     * @param allocator pays for the vectors until the root is closed
     * @return the batch, owned by the caller
     */
    static VectorSchemaRoot batch(int batch, int rows, BufferAllocator allocator) {
        BigIntVector id = new BigIntVector("id", allocator);
        Float8Vector value = new Float8Vector("value", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        id.allocateNew(rows);
        value.allocateNew(rows);
        name.allocateNew(rows * 8L, rows);
        for (int r = 0; r < rows; r++) {
            long row = (long) batch * rows + r;
            id.set(r, row);
            value.set(r, row * 0.5);
            if (r % 10 == 9) {
                name.setNull(r);
            } else {
                name.setSafe(r, ("n" + (row % 1_000_000)).getBytes(StandardCharsets.US_ASCII));
            }
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, value, name));
        root.setRowCount(rows);
        return root;
    }
}
