package dev.quiver.spark;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.host.HostVector;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.spark.sql.Row;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The test streams: row {@code r} (global, over every endpoint) holds {@code id = r}, {@code x = r / 2.0} and
 * {@code s = "row r"}, null where {@code r % 7 == 3}; any row can be checked without keeping the expected values.
 */
final class Rows {
    static final int BATCHES_PER_ENDPOINT = 3;
    static final int ROWS_PER_BATCH = 2_000;
    static final int ROWS_PER_ENDPOINT = BATCHES_PER_ENDPOINT * ROWS_PER_BATCH;

    private Rows() {}

    /** @return the struct field of every batch */
    static Field schema() {
        return batch(0, 1).field();
    }

    /** @return rows {@code first} to {@code first + count - 1} as a host vector */
    static HostVector batch(long first, int count) {
        Long[] ids = new Long[count];
        Double[] xs = new Double[count];
        String[] ss = new String[count];
        for (int i = 0; i < count; i++) {
            long r = first + i;
            ids[i] = r;
            xs[i] = r / 2.0;
            ss[i] = s(r);
        }
        return HostVector.struct("batch", HostVector.int64("id", ids), HostVector.float64("x", xs), HostVector.utf8("s", ss));
    }

    /** @return the value of column s in row r */
    static String s(long r) {
        return r % 7 == 3 ? null : "row " + r;
    }

    /** @return endpoint {@code e}'s batches, made when the stream is opened */
    static Supplier<DeviceArrayStream> endpoint(int e) {
        return () -> DeviceArrayStream.of(schema(), DeviceType.CPU, IntStream.range(0, BATCHES_PER_ENDPOINT)
                .mapToObj(b -> batch((long) e * ROWS_PER_ENDPOINT + (long) b * ROWS_PER_BATCH, ROWS_PER_BATCH).toDeviceArray()));
    }

    /** @return the endpoints of a stream of {@code count} endpoints */
    static List<Supplier<DeviceArrayStream>> endpoints(int count) {
        return IntStream.range(0, count).mapToObj(Rows::endpoint).toList();
    }

    /**
     * @param rows the rows Spark read, in any order
     * @param expected how many there must be, rows 0 to expected - 1
     * @return null if they are exactly the source's rows, else what is wrong
     */
    static String wrong(List<Row> rows, int expected) {
        if (rows.size() != expected) {
            return rows.size() + " rows, not " + expected;
        }
        boolean[] seen = new boolean[expected];
        for (Row row : rows) {
            long r = row.getLong(0);
            if (r < 0 || r >= expected || seen[(int) r]) {
                return "row id " + r + " out of range or seen twice";
            }
            seen[(int) r] = true;
            if (row.getDouble(1) != r / 2.0 || !java.util.Objects.equals(row.getString(2), s(r))) {
                return "row " + r + " is " + row;
            }
        }
        return null;
    }

    /** @return the rows of a CPU struct batch of this schema, as Spark would show them; the batch stays the caller's */
    static List<Row> of(DeviceArray batch) {
        List<Object> ids = values(batch, "id");
        List<Object> xs = values(batch, "x");
        List<Object> ss = values(batch, "s");
        return IntStream.range(0, ids.size()).mapToObj(i -> org.apache.spark.sql.RowFactory.create(ids.get(i), xs.get(i), ss.get(i))).toList();
    }

    /** A child of a batch is a view that keeps the batch's memory alive: closed here once its values are read. */
    private static List<Object> values(DeviceArray batch, String child) {
        try (DeviceArray column = batch.child(batch.field().childIndex(child))) {
            return dev.quiver.host.ArrayReader.of(column).values();
        }
    }
}
