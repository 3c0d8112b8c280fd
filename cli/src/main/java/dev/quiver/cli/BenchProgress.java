package dev.quiver.cli;

import java.io.PrintStream;
import java.util.ArrayList;

/**
 * The rows of {@code quiver bench} as they are measured, each one also announced on standard error as it
 * finishes ({@code quiver bench: 3 done, copy round trip 1 MiB, OPENCL: 0.99}), so a run of a minute or more shows
 * progress; the table (or the JSON) on standard output comes at the end. One thread.
 */
final class BenchProgress extends ArrayList<BenchRow> {
    private static final long serialVersionUID = 1L;
    private final transient PrintStream progress;

    /** @param progress where each finished row is announced */
    BenchProgress(PrintStream progress) {
        this.progress = progress;
    }

    @Override
    public boolean add(BenchRow row) {
        boolean added = super.add(row);
        progress.printf("quiver bench: %d done, %s: %.2f%n", size(), row.benchmark(), row.comparison().ratio().median());
        progress.flush();
        return added;
    }
}
