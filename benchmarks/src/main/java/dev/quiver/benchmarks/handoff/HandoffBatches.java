package dev.quiver.benchmarks.handoff;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.share.SharedHostArena;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The batch both sides know: a struct of one non-null int64 column {@code v} whose row {@code r} holds
 * {@code r}, so that the receiver checks any value without a copy of the expected ones. Stateless.
 */
final class HandoffBatches {
    /** The struct field of every batch. */
    static final Field SCHEMA = Field.struct("batch", false, List.of(Field.of("v", new ArrowType.Int(64, true), false)));

    private HandoffBatches() {}

    /**
     * Builds the batch in an arena, values written in place (no copy into the arena).
     *
     * @param rows  rows, at least 1
     * @param arena where the values live; it must have {@code rows * 8} bytes left. The caller keeps it
     * @param cpu   the CPU device of the arena
     * @return the batch, owned by the caller
     */
    static DeviceArray inArena(long rows, SharedHostArena arena, Device cpu) {
        DeviceBuffer data = arena.allocate(rows * Long.BYTES);
        MemorySegment values = data.asSegment();
        for (long r = 0; r < rows; r++) {
            values.setAtIndex(ValueLayout.JAVA_LONG, r, r);
        }
        DeviceArray column = DeviceArray.builder(SCHEMA.children().getFirst(), cpu).length(rows).nullCount(0)
                .absentBuffer().buffer(data).build();
        return DeviceArray.builder(SCHEMA, cpu).length(rows).nullCount(0).absentBuffer().child(column).build();
    }

    /**
     * Reads the last value of a received batch (one page of its memory touched).
     *
     * @param batch a CPU batch of {@link #SCHEMA}; the caller keeps it
     * @return its row count, checked against its last value
     * @throws IllegalStateException if the last value is not the last row's index
     */
    static long checkLast(DeviceArray batch) {
        long rows = batch.length();
        try (DeviceArray column = batch.child(0)) {
            long last = values(column).getAtIndex(ValueLayout.JAVA_LONG, rows - 1);
            if (last != rows - 1) {
                throw new IllegalStateException("row " + (rows - 1) + " of the received batch holds " + last);
            }
        }
        return rows;
    }

    /**
     * Reads every value of a received batch.
     *
     * @param batch a CPU batch of {@link #SCHEMA}; the caller keeps it
     * @param rows  the rows it should have
     * @throws IllegalStateException naming the first wrong row or the wrong length
     */
    static void checkAll(DeviceArray batch, long rows) {
        if (batch.length() != rows) {
            throw new IllegalStateException("the received batch has " + batch.length() + " rows, not " + rows);
        }
        try (DeviceArray column = batch.child(0)) {
            MemorySegment values = values(column);
            for (long r = 0; r < rows; r++) {
                long value = values.getAtIndex(ValueLayout.JAVA_LONG, r);
                if (value != r) {
                    throw new IllegalStateException("row " + r + " of the received batch holds " + value);
                }
            }
        }
    }

    /** @param column the int64 column, restricted to the batch's rows; the segment is valid while it is open */
    private static MemorySegment values(DeviceArray column) {
        return column.buffer(1).asSegment().asSlice(column.offset() * Long.BYTES, column.length() * Long.BYTES);
    }
}
