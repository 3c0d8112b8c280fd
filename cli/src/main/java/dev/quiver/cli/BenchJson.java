package dev.quiver.cli;

import dev.quiver.cli.bench.Comparison;
import dev.quiver.cli.bench.Measure;

import java.util.List;
import java.util.Locale;

/**
 * {@code quiver bench --json}: the machine's load and every row, with each measure's median, quartiles,
 * extremes, sample count, warm-up and whether it settled, and the flags the table shows. Times are in
 * nanoseconds per operation; ratios are Quiver's time over the baseline's. Stateless; thread-safe.
 */
final class BenchJson {
    private BenchJson() {}

    /**
     * @param rows        the rows, in order
     * @param cores       the processors the JVM sees
     * @param loadBefore  the one-minute load average before the run (negative where unknown)
     * @param loadAfter   the one-minute load average after it
     * @return one JSON object
     */
    static String of(List<BenchRow> rows, int cores, double loadBefore, double loadAfter) {
        StringBuilder json = new StringBuilder("{\n  \"cores\": ").append(cores)
                .append(",\n  \"loadAverageBefore\": ").append(number(loadBefore))
                .append(",\n  \"loadAverageAfter\": ").append(number(loadAfter))
                .append(",\n  \"wideSpreadAbove\": ").append(number(Comparison.WIDE_SPREAD))
                .append(",\n  \"rows\": [");
        for (int i = 0; i < rows.size(); i++) {
            BenchRow row = rows.get(i);
            Comparison c = row.comparison();
            json.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"benchmark\": ").append(Json.quote(row.benchmark()))
                    .append(", \"baseline\": ").append(Json.quote(row.baseline()))
                    .append(",\n     \"quiverNanos\": ").append(measure(c.quiver()))
                    .append(",\n     \"baselineNanos\": ").append(measure(c.baseline()))
                    .append(",\n     \"ratio\": ").append(measure(c.ratio()))
                    .append(",\n     \"wideSpread\": ").append(c.wide())
                    .append(", \"settled\": ").append(c.settled()).append('}');
        }
        return json.append("\n  ]\n}").toString();
    }

    private static String measure(Measure m) {
        return "{\"median\": " + number(m.median()) + ", \"p25\": " + number(m.p25()) + ", \"p75\": " + number(m.p75())
                + ", \"min\": " + number(m.min()) + ", \"max\": " + number(m.max()) + ", \"samples\": " + m.samples()
                + ", \"warmupMillis\": " + m.warmupNanos() / 1_000_000 + ", \"settled\": " + m.settled() + "}";
    }

    /** {@return {@code value} as a JSON number of six significant digits, or null where it is not finite} */
    static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6g", value) : "null";
    }
}
