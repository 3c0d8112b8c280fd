package dev.quiver.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of a transfer: batches, bytes and rate. On a terminal one line is rewritten in place at most ten
 * times a second; elsewhere nothing is printed until {@link #summary}. Used by one thread.
 */
public final class Progress {
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter terminal;
    private final String verb;
    private final long start = System.nanoTime();
    private long lastDrawn;
    private long batches;
    private long rows;

    /**
     * Starts the clock of a transfer whose lines begin with "received".
     *
     * @param terminal where the live line goes, or null when not on a terminal
     */
    public Progress(PrintWriter terminal) {
        this(terminal, "received");
    }

    /**
     * Starts the clock of a transfer.
     *
     * @param terminal where the live line goes, or null when not on a terminal
     * @param verb     the first word of every line ("received", "sent")
     */
    public Progress(PrintWriter terminal, String verb) {
        this.terminal = terminal;
        this.verb = verb;
    }

    /**
     * Counts one batch and redraws the live line if it is due.
     *
     * @param batchRows rows of the batch that arrived
     * @param bytes     bytes received so far
     */
    public void batch(long batchRows, long bytes) {
        batches++;
        rows += batchRows;
        long now = System.nanoTime();
        if (terminal != null && now - lastDrawn >= REDRAW_NANOS) {
            lastDrawn = now;
            terminal.print("\r" + verb + " " + describe(bytes, now) + "   ");
            terminal.flush();
        }
    }

    /**
     * Clears the live line and describes the whole transfer.
     *
     * @param bytes  bytes received in all
     * @param target where the batches landed
     * @return the closing line
     */
    public String summary(long bytes, String target) {
        return summary(bytes) + " onto " + target;
    }

    /**
     * Clears the live line and describes the whole transfer: batches, rows, bytes, time and rate.
     *
     * @param bytes bytes moved in all
     * @return the closing line, without an ending
     */
    public String summary(long bytes) {
        if (terminal != null) {
            terminal.print("\r");
            terminal.flush();
        }
        return verb + " " + describe(bytes, System.nanoTime());
    }

    private String describe(long bytes, long now) {
        double seconds = Math.max(1e-9, (now - start) / 1e9);
        double mib = bytes / (1024.0 * 1024.0);
        return String.format(Locale.ROOT, "%d batches, %d rows, %.1f MiB in %.2f s (%.1f MiB/s)", batches, rows, mib, seconds, mib / seconds);
    }
}
