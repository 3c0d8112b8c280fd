package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Large batches of one int64 column {@code v} whose values both JVMs can compute: row {@code r} of batch
 * {@code b} holds {@code b * rows + r}, so any batch can be checked in full without keeping the expected
 * values anywhere.
 */
final class LongBatches {
    private LongBatches() {}

    /** @return the struct field of every batch */
    static Field schema() {
        return Field.struct("batch", false, List.of(Field.of("v", new ArrowType.Int(64, true), false)));
    }

    /**
     * @param batch     the batch index
     * @param rows      rows per batch
     * @param allocator pays for the values until the returned array is closed
     * @return the batch as a CPU struct array, owned by the caller
     */
    static DeviceArray batch(int batch, int rows, BufferAllocator allocator) {
        try (BigIntVector v = new BigIntVector(new org.apache.arrow.vector.types.pojo.Field("v",
                org.apache.arrow.vector.types.pojo.FieldType.notNullable(new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)), null), allocator)) {
            v.allocateNew(rows);
            MemorySegment values = MemorySegment.ofAddress(v.getDataBuffer().memoryAddress()).reinterpret((long) rows * Long.BYTES);
            long first = (long) batch * rows;
            for (int r = 0; r < rows; r++) {
                values.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, r, first + r);
            }
            MemorySegment.ofAddress(v.getValidityBuffer().memoryAddress()).reinterpret((rows + 7) / 8).fill((byte) 0xff);
            v.setValueCount(rows);
            try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v.getField()), List.of(v), rows)) {
                return VectorExport.toDeviceArray(root, null, allocator);
            }
        }
    }

    /**
     * Checks every value of a batch on the host.
     *
     * @param batch a CPU struct array of this schema
     * @param index the batch index it should be
     * @param rows  rows per batch
     * @return the index of the first wrong row, or -1 if every row is right
     */
    static long firstWrongRow(DeviceArray batch, int index, int rows) {
        if (batch.length() != rows) {
            return 0;
        }
        try (DeviceArray column = batch.child(0)) {
            MemorySegment values = column.buffer(1).asSegment();
            long first = (long) index * rows;
            for (long r = 0; r < rows; r++) {
                if (values.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, column.offset() + r) != first + r) {
                    return r;
                }
            }
            return -1;
        }
    }
}
