package dev.quiver.cli.flight;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of a transfer: batches, bytes and rate. On a terminal one line is rewritten in place at most ten
 * times a second; elsewhere nothing is printed until {@link #summary}. Used by one thread.
 */
final class Progress {
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter terminal;
    private final long start = System.nanoTime();
    private long lastDrawn;
    private long batches;
    private long rows;

    /**
     * @param terminal where the live line goes, or null when not on a terminal
     */
    Progress(PrintWriter terminal) {
        this.terminal = terminal;
    }

    /**
     * @param batchRows rows of the batch that arrived
     * @param bytes     bytes received so far
     */
    void batch(long batchRows, long bytes) {
        batches++;
        rows += batchRows;
        long now = System.nanoTime();
        if (terminal != null && now - lastDrawn >= REDRAW_NANOS) {
            lastDrawn = now;
            terminal.print("\r" + describe(bytes, now) + "   ");
            terminal.flush();
        }
    }

    /**
     * @param bytes  bytes received in all
     * @param target where the batches landed
     * @return the closing line
     */
    String summary(long bytes, String target) {
        if (terminal != null) {
            terminal.print("\r");
            terminal.flush();
        }
        return "received " + describe(bytes, System.nanoTime()) + " onto " + target;
    }

    private String describe(long bytes, long now) {
        double seconds = Math.max(1e-9, (now - start) / 1e9);
        double mib = bytes / (1024.0 * 1024.0);
        return String.format(Locale.ROOT, "%d batches, %d rows, %.1f MiB in %.2f s (%.1f MiB/s)", batches, rows, mib, seconds, mib / seconds);
    }
}
