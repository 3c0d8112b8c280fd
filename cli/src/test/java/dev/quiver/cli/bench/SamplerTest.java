package dev.quiver.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.function.LongUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sampler on a simulated clock, which each run of an operation advances by the cost the test gives it:
 * nothing here depends on how fast this machine is. (The timeout only guards against an operation that
 * never moves the clock, which would sample forever.)
 */
@Timeout(120)
class SamplerTest {
    private static final long MS = 1_000_000L;

    /** A clock that only the simulated operations move, and a JIT compiler busy until {@code compilingUntil}. */
    private static final class SimulatedClock {
        long now;
        long runs;
        long compilingUntil;

        long compilerMillis() {
            return Math.min(now, compilingUntil) / MS;
        }

        Sampler.Operation costing(LongUnaryOperator costOfRun) {
            return () -> now += costOfRun.applyAsLong(runs++);
        }
    }

    private static Sampler sampler(SimulatedClock clock) {
        return new Sampler(() -> clock.now, clock::compilerMillis, 10 * MS, 100 * MS, 10_000 * MS, 15);
    }

    @Test
    void theWarmUpLastsUntilTheCompilerIsDoneAndTheTimingsSettle() {
        SimulatedClock clock = new SimulatedClock();
        // interpreted at a steady pace for 2 s while the compiler works, then compiled: 10x faster
        clock.compilingUntil = 2_000 * MS;
        Sampler.Operation jitted = clock.costing(run -> run < 200_000 ? 10_000 : 1_000);
        Comparison comparison = sampler(clock).compare(jitted, 1, () -> clock.now += 1_000, 1);
        assertEquals(1_000, comparison.quiver().median(), 1, "measured after compilation, not during the slow phase");
        assertTrue(comparison.quiver().warmupNanos() >= 2_000 * MS, "warmed up past the slow phase: " + comparison.quiver());
        assertTrue(comparison.quiver().settled());
        assertEquals("", comparison.flag());
    }

    @Test
    void steadyTimingsEndTheWarmUpOnceTheCompilerIsIdle() {
        SimulatedClock clock = new SimulatedClock();
        Comparison comparison = sampler(clock).compare(clock.costing(run -> 1_000), 1, clock.costing(run -> 500), 1);
        assertTrue(comparison.quiver().warmupNanos() < 300 * MS, "no longer than the three windows need: " + comparison.quiver());
        assertEquals(2.0, comparison.ratio().median(), 1e-9);
        assertEquals("", comparison.flag());
    }

    @Test
    void samplesAlternateSoThatTheRatioComparesNeighbours() {
        SimulatedClock clock = new SimulatedClock();
        long[] slowdown = {1};
        Sampler.Operation quiver = clock.costing(run -> 2_000 * slowdown[0]);
        Sampler.Operation baseline = () -> {
            clock.now += 1_000 * slowdown[0];
            // the machine gets busier over time, for both alike
            slowdown[0] = clock.now > 400 * MS ? 3 : 1;
        };
        Comparison comparison = sampler(clock).compare(quiver, 1, baseline, 1);
        assertEquals(2.0, comparison.ratio().median(), 0.01, "ratio of neighbouring samples: " + comparison);
        assertEquals(15, comparison.ratio().samples());
    }

    @Test
    void aRatioThatSpreadsWideIsFlagged() {
        SimulatedClock clock = new SimulatedClock();
        // every other sample of Quiver is slowed down by a half
        Sampler.Operation noisy = clock.costing(run -> (clock.now / (10 * MS)) % 4 < 2 ? 1_000 : 1_500);
        Comparison comparison = sampler(clock).compare(noisy, 1, clock.costing(run -> 1_000), 1);
        assertTrue(comparison.wide(), comparison.toString());
        assertTrue(comparison.flag().startsWith("WIDE SPREAD"), comparison.flag());
    }

    @Test
    void aWarmUpThatNeverSettlesEndsAtItsLimitAndIsFlagged() {
        SimulatedClock clock = new SimulatedClock();
        // a sawtooth of 50 ms steps between 1 and 4 us: never settles
        Sampler.Operation drifting = clock.costing(run -> 1_000 * (1 + (clock.now / (50 * MS)) % 4));
        Comparison comparison = sampler(clock).compare(drifting, 1, clock.costing(run -> 1_000), 1);
        assertFalse(comparison.quiver().settled());
        assertTrue(comparison.quiver().warmupNanos() >= 10_000 * MS);
        assertTrue(comparison.flag().contains("UNSETTLED"), comparison.flag());
    }

    @Test
    void settlingComparesTheMediansOfTheLastWindows() {
        assertFalse(Settling.settled(List.of(1.0, 1.0, 1.0, 1.0, 1.0), 2, 3, 0.1), "too few samples");
        assertTrue(Settling.settled(List.of(9.0, 9.0, 9.0, 1.0, 1.05, 1.02, 1.0, 50.0, 1.01, 1.0, 1.08, 1.03), 3, 3, 0.1),
                "window medians 1.02, 1.01 and 1.03: one slow sample in a window does not matter");
        assertFalse(Settling.settled(List.of(3.0, 3.0, 3.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0), 3, 3, 0.1), "still getting faster");
    }

    @Test
    void quartilesInterpolateBetweenRanks() {
        Measure m = Measure.of(new double[] {4, 1, 3, 2, 5}, 0, true);
        assertEquals(3, m.median());
        assertEquals(2, m.p25());
        assertEquals(4, m.p75());
        assertEquals(1, m.min());
        assertEquals(5, m.max());
        assertEquals(2.0 / 3, m.spread(), 1e-9);
        assertEquals(2.5, Measure.of(new double[] {1, 2, 3, 4}, 0, true).median());
    }
}
