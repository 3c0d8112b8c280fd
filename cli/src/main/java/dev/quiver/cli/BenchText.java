package dev.quiver.cli;

import dev.quiver.cli.bench.Comparison;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The table {@code quiver bench} prints. By default it keeps to {@value #WIDTH} columns: each benchmark names
 * its baseline ({@code ... vs C}) and wraps, times are medians, the ratio keeps its quartiles and flags are
 * short. {@code --wide} prints one line per benchmark with every time's quartiles. Stateless.
 */
final class BenchText {
    static final int WIDTH = 100;
    private static final int GAP = 2;

    private BenchText() {}

    /**
     * @param rows what was measured
     * @param wide one line per row, with every quartile, however wide
     * @param out  where the table goes
     */
    static void print(List<BenchRow> rows, boolean wide, PrintStream out) {
        if (wide) {
            Table table = new Table("BENCHMARK", "QUIVER", "BASELINE", "BASELINE TIME", "RATIO", "FLAG");
            for (BenchRow row : rows) {
                Comparison c = row.comparison();
                table.row(row.benchmark(), c.quiver().textWithSpread(), row.baseline(), c.baseline().textWithSpread(),
                        ratio(c), c.flag());
            }
            table.print(out);
            return;
        }
        List<String[]> cells = new ArrayList<>();
        int[] widths = {"QUIVER".length(), "BASELINE".length(), "RATIO [QUARTILES]".length(), "FLAG".length()};
        for (BenchRow row : rows) {
            Comparison c = row.comparison();
            String[] cell = {c.quiver().text(), c.baseline().text(), ratio(c), shortFlag(c)};
            for (int i = 0; i < cell.length; i++) {
                widths[i] = Math.max(widths[i], cell[i].length());
            }
            cells.add(cell);
        }
        int others = 0;
        for (int width : widths) {
            others += width + GAP;
        }
        int nameWidth = Math.max(24, WIDTH - others);
        Table table = new Table("BENCHMARK (vs BASELINE)", "QUIVER", "BASELINE", "RATIO [QUARTILES]", "FLAG");
        for (int r = 0; r < rows.size(); r++) {
            BenchRow row = rows.get(r);
            List<String> name = Wrap.lines(row.benchmark() + " vs " + row.baseline(), nameWidth);
            String[] cell = cells.get(r);
            table.row(name.getFirst(), cell[0], cell[1], cell[2], cell[3]);
            for (String more : name.subList(1, name.size())) {
                table.row("  " + more);
            }
        }
        table.print(out);
    }

    private static String ratio(Comparison c) {
        return String.format("%.2f [%.2f - %.2f]", c.ratio().median(), c.ratio().p25(), c.ratio().p75());
    }

    private static String shortFlag(Comparison c) {
        String spread = c.wide() ? String.format("+-%.0f%%", 50 * c.ratio().spread()) : "";
        return (spread + (c.settled() ? "" : " UNSETTLED")).strip();
    }
}
