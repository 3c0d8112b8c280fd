package dev.quiver.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with left-aligned columns. Not thread-safe; build and print on one thread. */
final class Table {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        this.header = List.of(header);
    }

    void row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(String.valueOf(cell));
        }
        rows.add(row);
    }

    void print(PrintStream out) {
        int[] widths = new int[header.size()];
        for (List<String> row : concat()) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : concat()) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + widths[i] + "s  ", row.get(i)));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private List<List<String>> concat() {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        return all;
    }
}
