package dev.quiver.cli;

import dev.quiver.cli.bench.FlightRate;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * What {@code quiver bench --flight} prints: a table of every path's MiB/s (median, and the lowest and highest
 * run) and its ratio to the raw TCP floor of the same size, or the same as JSON. Rows come in threes per size: the
 * floor first. Stateless.
 */
final class FlightBenchText {
    private FlightBenchText() {}

    /**
     * @param rates      the rows, the floor first in each size's three
     * @param cores      the processors the JVM sees
     * @param loadBefore the one-minute load average before the run
     * @param loadAfter  the one-minute load average after it
     * @param warmUp     warm-up runs of each path
     * @param runs       measured runs of each path
     * @param out        where the table goes
     */
    static void print(List<FlightRate> rates, int cores, double loadBefore, double loadAfter, int warmUp, int runs, PrintStream out) {
        String intro = String.format(Locale.ROOT, "quiver bench --flight: load average %.1f before, %.1f after, on %d cores. One DoGet "
                + "stream per batch size on loopback, server and client in this JVM: the raw TCP floor (the same bytes through a "
                + "socket pair), plain Arrow Java Flight (its server and FlightClient) and Quiver (DeviceFlightServer to "
                + "DeviceFlightClient onto the CPU). Each path ran %d times to warm up, then %d times interleaved; MiB/s of Arrow "
                + "buffer bytes, median [lowest - highest]; / FLOOR = median over the floor's median (higher is better). "
                + "FlightThroughput (docs/PERFORMANCE.md) is the full measure.", loadBefore, loadAfter, cores, warmUp, runs);
        Wrap.lines(intro, BenchText.WIDTH).forEach(out::println);
        Table table = new Table("BATCH", "BATCHES", "PATH", "MIB/S [RANGE]", "/ FLOOR");
        for (int i = 0; i < rates.size(); i++) {
            FlightRate rate = rates.get(i);
            FlightRate floor = rates.get(i - i % 3);
            table.row(rate.batchMib() + " MiB", rate.batches(), rate.path(),
                    String.format(Locale.ROOT, "%.0f [%.0f - %.0f]", rate.median(), rate.min(), rate.max()),
                    String.format(Locale.ROOT, "%.2f", rate.toFloor(floor)));
        }
        table.print(out);
    }

    /**
     * @param rates      the rows, the floor first in each size's three
     * @param cores      the processors the JVM sees
     * @param loadBefore the one-minute load average before the run (negative where unknown)
     * @param loadAfter  the one-minute load average after it
     * @param warmUp     warm-up runs of each path
     * @param runs       measured runs of each path
     * @return one JSON object
     */
    static String json(List<FlightRate> rates, int cores, double loadBefore, double loadAfter, int warmUp, int runs) {
        StringBuilder json = new StringBuilder("{\n  \"cores\": ").append(cores)
                .append(",\n  \"loadAverageBefore\": ").append(BenchJson.number(loadBefore))
                .append(",\n  \"loadAverageAfter\": ").append(BenchJson.number(loadAfter))
                .append(",\n  \"warmupRuns\": ").append(warmUp)
                .append(",\n  \"measuredRuns\": ").append(runs)
                .append(",\n  \"rows\": [");
        for (int i = 0; i < rates.size(); i++) {
            FlightRate rate = rates.get(i);
            json.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"batchMib\": ").append(rate.batchMib())
                    .append(", \"batches\": ").append(rate.batches())
                    .append(", \"bytes\": ").append(rate.bytes())
                    .append(", \"path\": ").append(Json.quote(rate.path()))
                    .append(",\n     \"mibPerSecond\": {\"median\": ").append(BenchJson.number(rate.median()))
                    .append(", \"min\": ").append(BenchJson.number(rate.min()))
                    .append(", \"max\": ").append(BenchJson.number(rate.max()))
                    .append(", \"runs\": ").append(rate.runs())
                    .append("}, \"toFloor\": ").append(BenchJson.number(rate.toFloor(rates.get(i - i % 3)))).append('}');
        }
        return json.append("\n  ]\n}").toString();
    }
}
