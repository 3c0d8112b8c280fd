package dev.quiver.cli;

import dev.quiver.DeviceArray;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.List;

/**
 * The data {@code quiver flight serve --generate} and {@code quiver share --generate} offer: rows {@code id} (int64, the row number),
 * {@code value} (float64, half the id) and {@code name} (utf8, {@code row-ID}, null every tenth row), split
 * into batches of near-equal size. Immutable.
 *
 * @param rows    total rows
 * @param batches number of batches
 */
public record GeneratedBatches(long rows, int batches) {

    /**
     * Builds the first batch to read its field.
     *
     * @return the struct field of every batch
     */
    public Field schema() {
        return batch(0, 0).field();
    }

    /**
     * Builds one batch.
     *
     * @param index a batch index, {@code 0 <= index < batches}
     * @return the batch on the host (the CPU), owned by the caller
     */
    public DeviceArray batch(int index) {
        long first = rows * index / batches;
        long end = rows * (index + 1) / batches;
        return batch(first, (int) (end - first)).toDeviceArray();
    }

    /**
     * @param index a batch index, {@code 0 <= index < batches}
     * @return the rows of that batch
     */
    public long rowsOf(int index) {
        return rows * (index + 1) / batches - rows * index / batches;
    }

    private static HostVector batch(long first, int count) {
        List<Long> ids = new ArrayList<>(count);
        List<Double> values = new ArrayList<>(count);
        List<String> names = new ArrayList<>(count);
        for (long id = first; id < first + count; id++) {
            ids.add(id);
            values.add(id * 0.5);
            names.add(id % 10 == 9 ? null : "row-" + id);
        }
        return HostVector.struct("batch", HostVector.int64("id", ids.toArray(Long[]::new)),
                HostVector.float64("value", values.toArray(Double[]::new)), HostVector.utf8("name", names.toArray(String[]::new)));
    }
}
