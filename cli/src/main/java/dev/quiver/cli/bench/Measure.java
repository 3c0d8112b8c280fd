package dev.quiver.cli.bench;

import java.util.Arrays;

/**
 * What {@link Sampler} measured of one operation: its samples' median, quartiles and extremes (nanoseconds
 * per operation, or a plain number for a ratio), how long it was warmed up, and whether its timings settled.
 * Immutable; thread-safe.
 *
 * @param median      the median sample
 * @param p25         the first quartile
 * @param p75         the third quartile
 * @param min         the smallest sample
 * @param max         the largest sample
 * @param samples     how many samples
 * @param warmupNanos the warm-up's length
 * @param settled     whether the warm-up ended because timings settled, not because it ran out of time
 */
public record Measure(double median, double p25, double p75, double min, double max, int samples, long warmupNanos,
                      boolean settled) {

    /**
     * @param samples     the measured samples, at least one (the array is sorted in place)
     * @param warmupNanos the warm-up's length
     * @param settled     whether the warm-up settled
     * @return their statistics
     */
    public static Measure of(double[] samples, long warmupNanos, boolean settled) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        Arrays.sort(samples);
        return new Measure(quantile(samples, 0.5), quantile(samples, 0.25), quantile(samples, 0.75), samples[0],
                samples[samples.length - 1], samples.length, warmupNanos, settled);
    }

    /** @return the interquartile range relative to the median: 0.1 means the middle half of samples lie within 10% */
    public double spread() {
        return median == 0 ? 0 : (p75 - p25) / median;
    }

    /** @return the median as a time with a unit */
    public String text() {
        return time(median);
    }

    /** @return the median time and, in brackets, the quartiles */
    public String textWithSpread() {
        return time(median) + " [" + time(p25) + " - " + time(p75) + "]";
    }

    static String time(double nanos) {
        return nanos >= 1_000_000 ? String.format("%.2f ms", nanos / 1e6)
                : nanos >= 1_000 ? String.format("%.2f us", nanos / 1e3) : String.format("%.0f ns", nanos);
    }

    /** Linear interpolation between the closest ranks of a sorted array. */
    static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
    }
}
