package dev.quiver.cli.bench;

import java.util.Arrays;

/**
 * One row of {@code quiver bench --flight}: how fast one path moved one stream of batches, in MiB of Arrow buffer
 * bytes per second over the measured runs. Immutable.
 *
 * @param batchMib the batch size asked for, in MiB
 * @param batches  batches in the stream
 * @param bytes    the stream's Arrow buffer bytes
 * @param path     what moved them ({@code TCP floor}, {@code plain Arrow Java}, {@code Quiver to CPU})
 * @param median   median MiB/s
 * @param min      lowest MiB/s
 * @param max      highest MiB/s
 * @param runs     measured runs
 */
public record FlightRate(int batchMib, int batches, long bytes, String path, double median, double min, double max, int runs) {
    /**
     * @param batchMib the batch size asked for, in MiB
     * @param batches  batches in the stream
     * @param bytes    the stream's Arrow buffer bytes
     * @param path     what moved them
     * @param seconds  the time of each measured run
     * @return the row
     */
    public static FlightRate of(int batchMib, int batches, long bytes, String path, double[] seconds) {
        double[] rates = Arrays.stream(seconds).map(s -> bytes / s / (1 << 20)).sorted().toArray();
        int n = rates.length;
        double median = n % 2 == 1 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
        return new FlightRate(batchMib, batches, bytes, path, median, rates[0], rates[n - 1], n);
    }

    /** {@return this row's median over {@code floor}'s} */
    public double toFloor(FlightRate floor) {
        return median / floor.median;
    }
}
