package com.example.columns;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The kernels for columns in host memory (CPU arrays, and host copies of columns of devices this library
 * has no kernels for): reads the validity bitmap and the values through {@link DeviceBuffer#asSegment()},
 * row {@code i} at slot {@code offset + i}. Stateless; callable from any thread on columns it may read.
 */
final class HostColumns {
    private HostColumns() {
    }

    /**
     * The rows of a column as host memory: row {@code i} is slot {@code from + i}, up to {@code to}.
     *
     * @param values   the values
     * @param validity the validity bitmap, or {@code null} when every row is valid
     * @param from     the first slot
     * @param to       the slot after the last
     */
    private record Slots(MemorySegment values, MemorySegment validity, long from, long to) {
        static Slots of(Int64Column column) {
            return new Slots(column.values().asSegment(),
                    column.validity() == null ? null : column.validity().asSegment(),
                    column.offset(), column.offset() + column.length());
        }

        boolean isValid(long slot) {
            return validity == null || (validity.get(JAVA_BYTE, slot >>> 3) >> (slot & 7) & 1) != 0;
        }

        long value(long slot) {
            return values.getAtIndex(JAVA_LONG_UNALIGNED, slot);
        }

        boolean isKept(long slot, long threshold) {
            return isValid(slot) && value(slot) > threshold;
        }
    }

    /** @return the wrapping sum of the column's non-null values */
    static long sum(Int64Column column) {
        Slots slots = Slots.of(column);
        long total = 0;
        for (long slot = slots.from(); slot < slots.to(); slot++) {
            if (slots.isValid(slot)) {
                total += slots.value(slot);
            }
        }
        return total;
    }

    /**
     * @param host the CPU device to allocate the result on
     * @return a new int64 column without nulls on {@code host}, owned by the caller: the non-null values
     *         greater than {@code threshold}, in row order
     */
    static DeviceArray filterGreaterThan(Int64Column column, long threshold, Device host) {
        Slots slots = Slots.of(column);
        long count = 0;
        for (long slot = slots.from(); slot < slots.to(); slot++) {
            if (slots.isKept(slot, threshold)) {
                count++;
            }
        }
        DeviceBuffer out = host.allocate(count * Long.BYTES);
        try {
            MemorySegment target = out.asSegment();
            long next = 0;
            for (long slot = slots.from(); slot < slots.to() && next < count; slot++) {
                if (slots.isKept(slot, threshold)) {
                    target.setAtIndex(JAVA_LONG_UNALIGNED, next++, slots.value(slot));
                }
            }
            return ArrayBuilder.of(column.resultField(), host)
                    .length(count).nullCount(0).offset(0)
                    .absentBuffer().buffer(out)
                    .build();
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }
}
