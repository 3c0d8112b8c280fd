package dev.quiver.tck;

import dev.quiver.host.HostVector;

import java.util.Random;

/** Deterministic record batches for the conformance suites. */
public final class SampleData {
    private SampleData() {}

    /**
     * A struct batch with int32, int64, float64, bool, utf8 and list&lt;int64&gt; columns, with nulls in
     * each, from a fixed seed.
     *
     * @param rows number of rows
     * @param seed random seed
     * @return the batch
     */
    public static HostVector batch(int rows, long seed) {
        Random random = new Random(seed);
        Integer[] ints = new Integer[rows];
        Long[] longs = new Long[rows];
        Double[] doubles = new Double[rows];
        Boolean[] bools = new Boolean[rows];
        String[] strings = new String[rows];
        Integer[] listLengths = new Integer[rows];
        int elements = 0;
        for (int i = 0; i < rows; i++) {
            boolean isNull = random.nextInt(7) == 0;
            ints[i] = isNull ? null : random.nextInt();
            longs[i] = random.nextInt(5) == 0 ? null : random.nextLong();
            doubles[i] = random.nextInt(6) == 0 ? null : random.nextGaussian();
            bools[i] = random.nextInt(4) == 0 ? null : random.nextBoolean();
            strings[i] = random.nextInt(5) == 0 ? null : "row-" + i + "-é-" + "x".repeat(random.nextInt(9));
            listLengths[i] = random.nextInt(8) == 0 ? null : random.nextInt(4);
            elements += listLengths[i] == null ? 0 : listLengths[i];
        }
        Long[] items = new Long[elements];
        for (int i = 0; i < elements; i++) {
            items[i] = random.nextInt(9) == 0 ? null : (long) random.nextInt(1000);
        }
        return HostVector.struct("batch",
                HostVector.int32("i32", ints),
                HostVector.int64("i64", longs),
                HostVector.float64("f64", doubles),
                HostVector.bool("flag", bools),
                HostVector.utf8("text", strings),
                HostVector.list("items", HostVector.int64("item", items), listLengths));
    }
}
