package dev.quiver.benchmarks.handoff;

import dev.quiver.Copies;
import dev.quiver.ArrayBuilder;
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
    /** The rows {@link #checkAllCopied} copies to the host at a time: 64 MiB. */
    static final long PIECE_ROWS = 8L << 20;
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
        return inBuffer(rows, arena.allocate(rows * Long.BYTES), cpu);
    }

    /**
     * Builds the batch on a device: written in host memory of its own, copied onto {@code device} once (the
     * call returns when the copy completed), the host memory freed.
     *
     * @param rows   rows, at least 1
     * @param cpu    the CPU device
     * @param device the device to hold the batch
     * @return the batch on {@code device}, owned by the caller
     */
    static DeviceArray onDevice(long rows, Device cpu, Device device) {
        try (DeviceArray host = inBuffer(rows, cpu.allocate(rows * Long.BYTES), cpu)) {
            return Copies.toDevice(host, device);
        }
    }

    /** @param data host memory of {@code rows * 8} bytes, taken by the batch */
    private static DeviceArray inBuffer(long rows, DeviceBuffer data, Device cpu) {
        MemorySegment values = data.asSegment();
        for (long r = 0; r < rows; r++) {
            values.setAtIndex(ValueLayout.JAVA_LONG, r, r);
        }
        DeviceArray column = ArrayBuilder.of(SCHEMA.children().getFirst(), cpu).length(rows).nullCount(0)
                .absentBuffer().buffer(data).build();
        return ArrayBuilder.of(SCHEMA, cpu).length(rows).nullCount(0).absentBuffer().child(column).build();
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
            checkRows(values(column).asSlice((rows - 1) * Long.BYTES), rows - 1);
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
        checkLength(batch, rows);
        try (DeviceArray column = batch.child(0)) {
            checkRows(values(column), 0);
        }
    }

    /**
     * Reads the last value of a received batch that may have no host pointer (a Vulkan one): that one row is
     * copied to the host.
     *
     * @param batch a batch of {@link #SCHEMA} on any device; the caller keeps it
     * @return its row count, checked against its last value
     * @throws IllegalStateException if the last value is not the last row's index
     */
    static long checkLastCopied(DeviceArray batch) {
        long rows = batch.length();
        try (DeviceArray range = batch.slice(rows - 1, 1); DeviceArray last = Copies.toHost(range); DeviceArray column = last.child(0)) {
            checkRows(values(column), rows - 1);
        }
        return rows;
    }

    /**
     * Reads every value of a received batch that may have no host pointer, copying it to the host in pieces of
     * at most {@value #PIECE_ROWS} rows.
     *
     * @param batch a batch of {@link #SCHEMA} on any device; the caller keeps it
     * @param rows  the rows it should have
     * @throws IllegalStateException naming the first wrong row or the wrong length
     */
    static void checkAllCopied(DeviceArray batch, long rows) {
        checkLength(batch, rows);
        for (long start = 0; start < rows; start += PIECE_ROWS) {
            try (DeviceArray range = batch.slice(start, Math.min(PIECE_ROWS, rows - start)); DeviceArray piece = Copies.toHost(range);
                 DeviceArray column = piece.child(0)) {
                checkRows(values(column), start);
            }
        }
    }

    private static void checkLength(DeviceArray batch, long rows) {
        if (batch.length() != rows) {
            throw new IllegalStateException("the received batch has " + batch.length() + " rows, not " + rows);
        }
    }

    /**
     * @param values consecutive values of the batch
     * @param first  the row of the first of them
     * @throws IllegalStateException naming the first row that does not hold its index
     */
    private static void checkRows(MemorySegment values, long first) {
        long count = values.byteSize() / Long.BYTES;
        for (long r = 0; r < count; r++) {
            long value = values.getAtIndex(ValueLayout.JAVA_LONG, r);
            if (value != first + r) {
                throw new IllegalStateException("row " + (first + r) + " of the received batch holds " + value);
            }
        }
    }

    /** @param column the int64 column, restricted to the batch's rows; the segment is valid while it is open */
    private static MemorySegment values(DeviceArray column) {
        return column.buffer(1).asSegment().asSlice(column.offset() * Long.BYTES, column.length() * Long.BYTES);
    }
}
