package dev.quiver.benchmarks.handoff;

import java.util.List;
import java.util.Locale;

/**
 * Writes what {@link VulkanHandoffVersusFlight} measured as a Markdown table, one line per batch size, times in
 * milliseconds, after a line naming the device and whether the validation layer ran. Stateless.
 */
final class VulkanHandoffTable {
    /** The header line of the table. */
    static final String HEADER = "| batch | bytes | share handoff, median (min) ms | with the connection, median ms"
            + " | Flight DoGet bytes, median (min) ms | DoGet / handoff | handoffs arrived |";
    /** The line under the header. */
    static final String SEPARATOR = "|---|---|---|---|---|---|---|";

    private VulkanHandoffTable() {}

    /**
     * @param run what was measured
     * @return the table: a line naming the device and the validation layer, a line saying how many timings each
     *         median has, a blank line, the header, the separator and one line per row, each line ending with a
     *         newline
     */
    static String format(VulkanHandoffVersusFlight.Run run) {
        List<VulkanHandoffRow> rows = run.rows();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Vulkan on %s, validation layer %s%n", run.deviceName(), run.validation() ? "on" : "off"));
        if (!rows.isEmpty()) {
            out.append(String.format(Locale.ROOT, "share handoffs: %d per size; Flight DoGet fetches: %d per size%n",
                    rows.getFirst().handoff().count(), rows.getFirst().bytes().count()));
        }
        out.append('\n').append(HEADER).append('\n').append(SEPARATOR).append('\n');
        for (VulkanHandoffRow row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %.3f (%.3f) | %.3f | %.3f (%.3f) | %.1f | %s |%n",
                    HandoffTable.rowsText(row.rows()), HandoffTable.bytesText(row.byteSize()), row.handoff().medianMillis(),
                    row.handoff().minMillis(), row.withConnect().medianMillis(), row.bytes().medianMillis(), row.bytes().minMillis(),
                    row.bytesOverHandoff(), row.arrived()));
        }
        return out.toString();
    }
}
