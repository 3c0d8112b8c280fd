package dev.quiver.cli.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The in-process timer of {@code quiver bench}. An operation is timed in samples: each sample runs it
 * repeatedly for {@code sampleNanos} and gives the time per operation. A warm-up takes samples until they
 * settle (the medians of three windows of five samples within 10% of one another, {@link Settling}, with the
 * JIT compiler idle over those windows, after at least {@code minWarmupNanos}: on a loaded machine compiled
 * code can be seconds late, and timings of interpreted code can look steady) or until
 * {@code maxWarmupNanos}, when the measure is marked unsettled. Then
 * {@link #compare} alternates samples of the two operations, so that load from other processes falls on
 * both alike, and reports each and the ratio of neighbouring samples. For quick comparisons on one machine;
 * the JMH benchmarks are the reference. Not thread-safe: one sampler times one thing at a time, on the
 * calling thread.
 */
public final class Sampler {
    private static final int WINDOW = 5;
    private static final int WINDOWS = 3;
    private static final double TOLERANCE = 0.10;

    private final LongSupplier clock;
    private final LongSupplier compilerMillis;
    private final long sampleNanos;
    private final long minWarmupNanos;
    private final long maxWarmupNanos;
    private final int rounds;

    /** An operation to time; one {@code run()} does a known number of units of work. */
    @FunctionalInterface
    public interface Operation {
        /** Runs once. */
        void run();
    }

    /**
     * @param clock          nanosecond clock ({@code System::nanoTime})
     * @param compilerMillis the JIT compiler's total time so far, in milliseconds; it stands still when the
     *                       compiler is idle
     * @param sampleNanos    length of one sample
     * @param minWarmupNanos shortest warm-up
     * @param maxWarmupNanos longest warm-up, after which the measure is unsettled
     * @param rounds         measured samples per operation
     */
    public Sampler(LongSupplier clock, LongSupplier compilerMillis, long sampleNanos, long minWarmupNanos, long maxWarmupNanos,
                   int rounds) {
        if (sampleNanos <= 0 || minWarmupNanos < 0 || maxWarmupNanos < minWarmupNanos || rounds < 1) {
            throw new IllegalArgumentException("bad sampler settings");
        }
        this.clock = clock;
        this.compilerMillis = compilerMillis;
        this.sampleNanos = sampleNanos;
        this.minWarmupNanos = minWarmupNanos;
        this.maxWarmupNanos = maxWarmupNanos;
        this.rounds = rounds;
    }

    /** @return the sampler {@code quiver bench} uses: 20 ms samples, 1 to 20 s of warm-up, 15 rounds */
    public static Sampler standard() {
        var compiler = ManagementFactory.getCompilationMXBean();
        LongSupplier compilerMillis = compiler != null && compiler.isCompilationTimeMonitoringSupported()
                ? compiler::getTotalCompilationTime : () -> 0;
        return new Sampler(System::nanoTime, compilerMillis, 20_000_000L, 1_000_000_000L, 20_000_000_000L, 15);
    }

    /**
     * @return the sampler of {@code quiver bench --memory}, whose operations run long (a 256 MiB round trip) and
     *         are dominated by memory, not the compiler: 50 ms samples, 0.3 to 5 s of warm-up, 9 rounds
     */
    public static Sampler forMemory() {
        var compiler = ManagementFactory.getCompilationMXBean();
        LongSupplier compilerMillis = compiler != null && compiler.isCompilationTimeMonitoringSupported()
                ? compiler::getTotalCompilationTime : () -> 0;
        return new Sampler(System::nanoTime, compilerMillis, 50_000_000L, 300_000_000L, 5_000_000_000L, 9);
    }

    /**
     * Warms both operations up, then times them in alternating samples.
     *
     * @param quiver         Quiver's operation
     * @param quiverUnits    units of work per run of it
     * @param baseline       the baseline's operation
     * @param baselineUnits  units of work per run of it
     * @return both times per unit and their ratio
     */
    public Comparison compare(Operation quiver, long quiverUnits, Operation baseline, long baselineUnits) {
        Warmup quiverWarmup = warmUp(quiver, quiverUnits);
        Warmup baselineWarmup = warmUp(baseline, baselineUnits);
        double[] quiverSamples = new double[rounds];
        double[] baselineSamples = new double[rounds];
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            quiverSamples[r] = sample(quiver, quiverUnits, quiverWarmup.stride);
            baselineSamples[r] = sample(baseline, baselineUnits, baselineWarmup.stride);
            ratios[r] = quiverSamples[r] / baselineSamples[r];
        }
        boolean settled = quiverWarmup.settled && baselineWarmup.settled;
        return new Comparison(Measure.of(quiverSamples, quiverWarmup.nanos, quiverWarmup.settled),
                Measure.of(baselineSamples, baselineWarmup.nanos, baselineWarmup.settled),
                Measure.of(ratios, quiverWarmup.nanos + baselineWarmup.nanos, settled));
    }

    /** How long a warm-up took, whether it settled, and how many runs go between two readings of the clock. */
    private record Warmup(long nanos, boolean settled, int stride) {}

    /** Runs between two readings of the clock are chosen to span at least this long, so the clock costs ~1%. */
    private static final long STRIDE_NANOS = 2_000;
    private static final int MAX_STRIDE = 4_096;

    private Warmup warmUp(Operation operation, long units) {
        List<Double> samples = new ArrayList<>();
        List<Long> compiled = new ArrayList<>();
        long start = clock.getAsLong();
        int stride = 1;
        while (true) {
            compiled.add(compilerMillis.getAsLong());
            double perUnit = sample(operation, units, stride);
            samples.add(perUnit);
            // short operations run several times per reading of the clock, whose cost would otherwise count
            stride = (int) Math.max(1, Math.min(MAX_STRIDE, STRIDE_NANOS / Math.max(1.0, perUnit * units)));
            long spent = clock.getAsLong() - start;
            int settling = WINDOW * WINDOWS;
            boolean compilerIdle = compiled.size() >= settling
                    && compilerMillis.getAsLong() == compiled.get(compiled.size() - settling);
            if (spent >= minWarmupNanos && compilerIdle && Settling.settled(samples, WINDOW, WINDOWS, TOLERANCE)) {
                return new Warmup(spent, true, stride);
            }
            if (spent >= maxWarmupNanos) {
                return new Warmup(spent, false, stride);
            }
        }
    }

    /** @return nanoseconds per unit of work over one sample, the clock read every {@code stride} runs */
    private double sample(Operation operation, long units, int stride) {
        long runs = 0;
        long start = clock.getAsLong();
        long now;
        do {
            for (int i = 0; i < stride; i++) {
                operation.run();
            }
            runs += stride;
            now = clock.getAsLong();
        } while (now - start < sampleNanos);
        return (now - start) / (double) (runs * units);
    }
}
