package dev.quiver.flight;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The output of {@link FlightThroughput}: one Markdown table row per case (every path's median MiB/s, Quiver's
 * ratios to the floor and to plain Arrow Java, and the heap per batch of plain Arrow Java and of Quiver on both
 * sides), and optionally every measurement as a CSV row per case and path. Stateless.
 */
final class BenchReport {
    /** The CSV's columns. */
    static final String CSV_HEADER = "column,batch_bytes,batch,streams,batches,bytes,path,mib_s_median,mib_s_min,mib_s_max,runs,"
            + "client_heap_per_batch,server_heap_per_batch,failure";

    private BenchReport() {}

    /**
     * Prints the table's header.
     *
     * @param paths the paths, in their column order: the floor, plain Arrow Java, then Quiver onto each target
     * @param out   where it goes
     */
    static void header(List<BenchPath> paths, PrintStream out) {
        List<String> columns = new ArrayList<>(List.of("column", "batch", "streams", "batches"));
        for (BenchPath path : paths) {
            columns.add(switch (path.kind()) {
                case FLOOR -> "TCP floor MiB/s";
                case PLAIN -> "plain Arrow Java MiB/s";
                case QUIVER -> "Quiver to " + path.target().type() + " MiB/s";
            });
        }
        String quiver = paths.size() > 2 ? "Quiver to " + paths.get(2).target().type() : "Quiver";
        columns.addAll(List.of(quiver + " / floor", quiver + " / plain", "heap per batch, plain: client / server",
                "heap per batch, " + quiver + ": client / server"));
        out.println("| " + String.join(" | ", columns) + " |");
        out.println("|" + "---|".repeat(columns.size()));
    }

    /**
     * Prints the row of one case.
     *
     * @param results its results, in the header's path order
     * @param out     where it goes
     */
    static void row(List<BenchResult> results, PrintStream out) {
        BenchCase c = results.getFirst().benchCase();
        List<String> cells = new ArrayList<>(List.of(c.type(), BenchOptions.label(c.batchBytes()), Integer.toString(c.streams()),
                Integer.toString(c.batches())));
        for (BenchResult result : results) {
            cells.add(result.runs() > 0 ? String.format(Locale.ROOT, "%.0f", result.median()) : shortly(result.failure()));
        }
        BenchResult floor = results.get(0);
        BenchResult plain = results.get(1);
        BenchResult quiver = results.size() > 2 ? results.get(2) : null;
        cells.add(quiver == null ? "" : ratio(quiver, floor));
        cells.add(quiver == null ? "" : ratio(quiver, plain));
        cells.add(heap(plain));
        cells.add(quiver == null ? "" : heap(quiver));
        out.println("| " + String.join(" | ", cells) + " |");
        out.flush();
    }

    /**
     * Writes every result as a CSV row, under {@link #CSV_HEADER}.
     *
     * @param results the results
     * @param file    the file, replaced
     * @throws IOException if it cannot be written
     */
    static void csv(List<BenchResult> results, Path file) throws IOException {
        List<String> lines = new ArrayList<>(List.of(CSV_HEADER));
        for (BenchResult r : results) {
            BenchCase c = r.benchCase();
            lines.add(String.join(",", c.type(), Long.toString(c.batchBytes()), BenchOptions.label(c.batchBytes()), Integer.toString(c.streams()),
                    Integer.toString(c.batches()), Long.toString(r.bytes()), r.path().label(), number(r.median()), number(r.min()), number(r.max()),
                    Integer.toString(r.runs()), number(r.clientHeapPerBatch()), number(r.serverHeapPerBatch()),
                    r.failure() == null ? "" : '"' + r.failure().replace("\"", "'") + '"'));
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.write(file, lines);
    }

    /** {@return a failure's first words: up to a parenthesis, at most 60 characters} */
    private static String shortly(String failure) {
        String s = failure.contains(" (") ? failure.substring(0, failure.indexOf(" (")) : failure;
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    private static String ratio(BenchResult of, BenchResult to) {
        return of.runs() > 0 && to.runs() > 0 ? String.format(Locale.ROOT, "%.2f", of.median() / to.median()) : "-";
    }

    private static String heap(BenchResult result) {
        return result.runs() > 0 ? bytes(result.clientHeapPerBatch()) + " / " + bytes(result.serverHeapPerBatch()) : "-";
    }

    private static String bytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "-";
        }
        return bytes >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20)) : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
    }
}
