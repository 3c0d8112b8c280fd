package dev.quiver.benchmarks.handoff;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks both handoff harness tests make of what was measured, never of a figure: every time positive, each
 * minimum at most its median, the handoff timed from the connection at least the same handoff timed from the
 * request, and a printed ratio that the printed medians give. Stateless.
 */
final class TimingAssertions {
    private TimingAssertions() {}

    /**
     * @param row         the row measured, named in the failure
     * @param handoff     its handoffs, timed from the request
     * @param withConnect the same handoffs, timed from the connection
     * @param others      its other timings
     */
    static void assertTimings(Object row, Samples handoff, Samples withConnect, List<Samples> others) {
        for (Samples samples : Stream.concat(Stream.of(handoff, withConnect), others.stream()).toList()) {
            assertTrue(samples.minMillis() > 0, row + ": a time of zero");
            assertTrue(samples.minMillis() <= samples.medianMillis(), row + ": the minimum above the median");
        }
        // each handoff timed from the connection is at least the same handoff timed from the request
        assertTrue(withConnect.medianMillis() >= handoff.medianMillis(), row + ": medians");
        assertTrue(withConnect.minMillis() >= handoff.minMillis(), row + ": minima");
    }

    /**
     * Checks a printed ratio against the printed medians it divides, up to their rounding: three decimals each,
     * one for the ratio.
     */
    static void assertRatio(double numerator, double denominator, String printed, String what) {
        double ratio = numerator / denominator;
        double rounding = 0.05 + ratio * (0.0005 / numerator + 0.0005 / denominator) + 1e-9;
        assertTrue(Math.abs(Double.parseDouble(printed) - ratio) <= rounding, what + ": printed " + printed + ", the medians give " + ratio);
    }
}
