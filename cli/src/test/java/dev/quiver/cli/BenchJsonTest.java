package dev.quiver.cli;

import dev.quiver.cli.bench.Comparison;
import dev.quiver.cli.bench.Measure;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JSON of {@code quiver bench --json}: every figure the table shows, with flags, as plain JSON. */
class BenchJsonTest {

    @Test
    void rowsCarryTheirMeasuresAndFlags() {
        Measure quiver = new Measure(2_000, 1_900, 2_600, 1_800, 3_000, 15, 1_200_000_000L, true);
        Measure baseline = new Measure(1_000, 990, 1_010, 980, 1_020, 15, 1_000_000_000L, false);
        Measure ratio = new Measure(2.0, 1.9, 2.6, 1.8, 3.0, 15, 2_200_000_000L, false);
        String json = BenchJson.of(List.of(new BenchRow("copy \"1 MiB\"", "memcpy", new Comparison(quiver, baseline, ratio))),
                2, 3.5, Double.NaN);
        assertEquals("""
                {
                  "cores": 2,
                  "loadAverageBefore": 3.50000,
                  "loadAverageAfter": null,
                  "wideSpreadAbove": 0.100000,
                  "rows": [
                    {"benchmark": "copy \\"1 MiB\\"", "baseline": "memcpy",
                     "quiverNanos": {"median": 2000.00, "p25": 1900.00, "p75": 2600.00, "min": 1800.00, "max": 3000.00, "samples": 15, "warmupMillis": 1200, "settled": true},
                     "baselineNanos": {"median": 1000.00, "p25": 990.000, "p75": 1010.00, "min": 980.000, "max": 1020.00, "samples": 15, "warmupMillis": 1000, "settled": false},
                     "ratio": {"median": 2.00000, "p25": 1.90000, "p75": 2.60000, "min": 1.80000, "max": 3.00000, "samples": 15, "warmupMillis": 2200, "settled": false},
                     "wideSpread": true, "settled": false}
                  ]
                }""", json);
        assertTrue(new Comparison(quiver, baseline, ratio).flag().equals("WIDE SPREAD (+-18%) UNSETTLED"));
    }
}
