package com.example.columns;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A checked view of an int64 column: its buffers as borrowed views, its offset and length. Valid while the
 * array is open; confined to the thread that made it.
 *
 * @param array    the column, borrowed
 * @param validity the validity bitmap, or {@code null} when the column has none or no nulls
 * @param values   the int64 values
 */
record Int64Column(DeviceArray array, DeviceBuffer validity, DeviceBuffer values) {
    private static final ArrowType INT64 = new ArrowType.Int(64, true);

    /**
     * @param array what a caller passed as an int64 column
     * @return the checked view
     * @throws NullPointerException     if {@code array} is null
     * @throws IllegalArgumentException if {@code array} is not an int64 column
     * @throws IllegalStateException    if {@code array} is closed
     */
    static Int64Column of(DeviceArray array) {
        Objects.requireNonNull(array, "int64Column");
        if (array.isClosed()) {
            throw new IllegalStateException("int64Column " + array.field().name() + " is closed");
        }
        Field field = array.field();
        if (!field.type().equals(INT64) || field.dictionary() != null) {
            throw new IllegalArgumentException("expected an int64 column, got " + field.type().format()
                    + (field.dictionary() != null ? " (dictionary-encoded)" : "") + " in field '" + field.name() + "'");
        }
        if (array.bufferCount() != 2) {
            throw new IllegalArgumentException("an int64 column has 2 buffers, field '" + field.name() + "' has "
                    + array.bufferCount());
        }
        DeviceBuffer validity = array.buffer(0);
        boolean hasValidity = array.nullCount() != 0 && !validity.pointer().equals(MemorySegment.NULL);
        return new Int64Column(array, hasValidity ? validity : null, array.buffer(1));
    }

    /** @return the index of row 0 in the buffers */
    long offset() {
        return array.offset();
    }

    /** @return the number of rows */
    long length() {
        return array.length();
    }

    /** @return the name of the column's field, for results */
    String name() {
        return array.field().name();
    }

    /** @return the field of a filtered column: int64, not nullable, the same name */
    Field resultField() {
        return Field.of(name(), INT64, false);
    }
}
