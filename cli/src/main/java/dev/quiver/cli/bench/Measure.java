package dev.quiver.cli.bench;

import java.util.Arrays;

/**
 * A small in-process timer for {@code quiver bench}: warms an operation up, then takes several timed samples
 * and reports the median time per operation with the spread. For quick comparisons on one machine; the JMH
 * benchmarks are the reference. Not thread-safe.
 *
 * @param medianNanos median nanoseconds per operation
 * @param minNanos    fastest sample
 * @param maxNanos    slowest sample
 */
public record Measure(double medianNanos, double minNanos, double maxNanos) {
    private static final long WARMUP_NANOS = 1_000_000_000L;
    private static final long SAMPLE_NANOS = 150_000_000L;
    private static final int SAMPLES = 5;

    /** An operation to time; it does {@code operations()} units of work per call. */
    public interface Operation {
        /** Runs once. */
        void run();
    }

    /**
     * {@return the measurement}
     * @param operation       what to time
     * @param operationsPerRun units of work one {@code run()} does (for example iterations inside C)
     */
    public static Measure of(Operation operation, long operationsPerRun) {
        long end = System.nanoTime() + WARMUP_NANOS;
        while (System.nanoTime() < end) {
            operation.run();
        }
        double[] samples = new double[SAMPLES];
        for (int s = 0; s < SAMPLES; s++) {
            long runs = 0;
            long start = System.nanoTime();
            long stop = start + SAMPLE_NANOS;
            long now;
            do {
                operation.run();
                runs++;
                now = System.nanoTime();
            } while (now < stop);
            samples[s] = (now - start) / (double) (runs * operationsPerRun);
        }
        Arrays.sort(samples);
        return new Measure(samples[SAMPLES / 2], samples[0], samples[SAMPLES - 1]);
    }

    /** {@return the median as text with a unit} */
    public String text() {
        return medianNanos >= 1_000_000 ? String.format("%.2f ms", medianNanos / 1e6)
                : medianNanos >= 1_000 ? String.format("%.2f us", medianNanos / 1e3) : String.format("%.0f ns", medianNanos);
    }
}
