package dev.quiver.benchmarks.handoff;

import java.util.List;
import java.util.Locale;

/**
 * Writes what {@link HandoffVersusFlight} measured as a Markdown table, one line per batch size, times in
 * milliseconds. Stateless.
 */
final class HandoffTable {
    /** The header line of the table. */
    static final String HEADER = "| batch | bytes | share handoff, median (min) ms | with the connection, median ms"
            + " | Flight same-host fetch, median ms | Flight DoGet bytes, median (min) ms | DoGet / handoff | DoGet / same-host |";

    private HandoffTable() {}

    /**
     * @param rows what was measured, in the order to print
     * @return the table: a line saying how many timings each median has, a blank line, the header, the separator
     *         and one line per row, each line ending with a newline
     */
    static String format(List<HandoffRow> rows) {
        StringBuilder out = new StringBuilder();
        if (!rows.isEmpty()) {
            out.append(String.format(Locale.ROOT, "share handoffs: %d per size; Flight fetches: %d per size and route%n%n",
                    rows.getFirst().handoff().count(), rows.getFirst().bytes().count()));
        }
        out.append(HEADER).append('\n').append("|---|---|---|---|---|---|---|---|\n");
        for (HandoffRow row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %.3f (%.3f) | %.3f | %.3f | %.3f (%.3f) | %.1f | %.1f |%n",
                    rowsText(row.rows()), bytesText(row.byteSize()), row.handoff().medianMillis(), row.handoff().minMillis(),
                    row.withConnect().medianMillis(), row.sameHost().medianMillis(), row.bytes().medianMillis(),
                    row.bytes().minMillis(), row.bytesOverHandoff(), row.bytesOverSameHost()));
        }
        return out.toString();
    }

    /** {@return a row count as the tables print it: {@code 1 row}, {@code 131,072 rows}} */
    static String rowsText(long rows) {
        return rows == 1 ? "1 row" : String.format(Locale.ROOT, "%,d rows", rows);
    }

    /** {@return a byte count as the tables print it: {@code 8 B}, {@code 7.63 MiB}, {@code 1 GiB}} */
    static String bytesText(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + " GiB";
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, bytes % (1L << 20) == 0 ? "%.0f MiB" : "%.2f MiB", bytes / (double) (1L << 20));
        }
        return bytes + " B";
    }
}
