package dev.quiver.cli.bench;

import java.util.Arrays;
import java.util.List;

/**
 * When a warm-up is over: once the medians of the last {@code windows} windows of {@code window} samples each
 * are within {@code tolerance} of one another, the code being timed has stopped getting faster (the JIT
 * compiler is done with it) and what remains is noise. Medians, not means, so that a few samples slowed by
 * other processes do not hold the warm-up back or end it early. Stateless; thread-safe.
 */
final class Settling {
    private Settling() {}

    /**
     * @param samples   the warm-up's samples so far, oldest first
     * @param window    samples per window
     * @param windows   how many consecutive windows must agree
     * @param tolerance how far apart their medians may be, relative to the smallest (0.1 for 10%)
     * @return whether the timings settled
     */
    static boolean settled(List<Double> samples, int window, int windows, double tolerance) {
        if (samples.size() < window * windows) {
            return false;
        }
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (int w = 0; w < windows; w++) {
            int end = samples.size() - w * window;
            double median = median(samples.subList(end - window, end));
            lowest = Math.min(lowest, median);
            highest = Math.max(highest, median);
        }
        return highest <= lowest * (1 + tolerance);
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return Measure.quantile(sorted, 0.5);
    }
}
