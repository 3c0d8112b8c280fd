package dev.quiver.flight;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.List;

/**
 * The batches of {@link FlightThroughput}: one column, int64 (8 bytes a row) or utf8 (12-byte ASCII strings
 * {@code s00000000042} and their int32 offsets, 16 bytes a row), of about the size asked for, written straight
 * into the vectors' buffers (a 1 GiB utf8 batch takes a second or two, not a minute of string formatting).
 * Stateless.
 */
final class BenchBatches {
    /** The column types measured. */
    static final List<String> TYPES = List.of("int64", "utf8");
    private static final int NAME = 12;

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
                ArrowBuf values = id.getDataBuffer();
                for (int r = 0; r < rows; r++) {
                    values.setLong((long) r * Long.BYTES, r);
                }
                allValid(id, rows);
                yield root(new VectorSchemaRoot(List.of(id)), rows);
            }
            case "utf8" -> {
                int rows = Math.toIntExact(bytes / 16);
                VarCharVector name = new VarCharVector("name", allocator);
                name.allocateNew((long) rows * NAME, rows);
                ArrowBuf offsets = name.getOffsetBuffer();
                ArrowBuf data = name.getDataBuffer();
                byte[] text = new byte[NAME];
                text[0] = 's';
                for (int r = 0; r < rows; r++) {
                    int rest = r;
                    for (int d = NAME - 1; d > 0; d--) {
                        text[d] = (byte) ('0' + rest % 10);
                        rest /= 10;
                    }
                    data.setBytes((long) r * NAME, text);
                    offsets.setInt((long) (r + 1) * Integer.BYTES, (r + 1) * NAME);
                }
                offsets.setInt(0, 0);
                name.setLastSet(rows - 1);   // before the value count, which would otherwise fill the offsets as empty strings
                allValid(name, rows);
                yield root(new VectorSchemaRoot(List.of(name)), rows);
            }
            default -> throw new IllegalArgumentException("no bench type " + type);
        };
    }

    /** {@return the bytes of the buffers of every vector of {@code root}, as Arrow Java counts them} */
    static long bufferBytes(VectorSchemaRoot root) {
        long bytes = 0;
        for (FieldVector vector : root.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    private static void allValid(FieldVector vector, int rows) {
        ArrowBuf validity = vector.getValidityBuffer();
        validity.setOne(0, rows / 8);
        for (int r = rows / 8 * 8; r < rows; r++) {
            BitVectorHelper.setBit(validity, r);
        }
        vector.setValueCount(rows);
    }

    private static VectorSchemaRoot root(VectorSchemaRoot root, int rows) {
        root.setRowCount(rows);
        return root;
    }
}
