package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.ProviderReport;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The text of {@code quiver devices}: one block per backend, no line longer than {@link #WIDTH} columns.
 * A usable backend lists its devices with their memory and, on the next line, how their memory reaches
 * another process; another backend gives its reasons and, where it is
 * unavailable or failed, what to install or set to enable it. Verbose output adds each backend's device
 * types and class and each device's details. Immutable; print from one thread at a time.
 *
 * @param verbose whether to add device types, provider classes and device details
 * @param style   colours for the status column
 */
record DevicesText(boolean verbose, Style style) {
    /** The widest line printed. */
    static final int WIDTH = 100;
    private static final String GAP = "  ";
    /** The widest backend name shown whole; longer ones are cut. */
    private static final int NAME_LIMIT = 16;

    /**
     * @param reports what discovery found, one per provider
     * @param out     where to print
     */
    void print(List<ProviderReport> reports, PrintStream out) {
        int nameWidth = "BACKEND".length();
        int memoryWidth = "MEMORY".length();
        for (ProviderReport report : reports) {
            nameWidth = Math.max(nameWidth, report.name().length());
            for (Device device : report.devices()) {
                memoryWidth = Math.max(memoryWidth, DeviceText.memory(device.totalMemory()).length());
            }
        }
        nameWidth = Math.min(nameWidth, NAME_LIMIT);
        int statusWidth = ProviderReport.Status.UNAVAILABLE.name().length();
        String blank = " ".repeat(nameWidth + GAP.length() + statusWidth + GAP.length());
        int textWidth = WIDTH - blank.length();
        int deviceWidth = textWidth - GAP.length() - memoryWidth;
        out.println(pad("BACKEND", nameWidth) + GAP + pad("STATUS", statusWidth) + GAP
                + pad("DEVICE OR REASON", deviceWidth) + GAP + pad("MEMORY", memoryWidth).stripTrailing());
        for (ProviderReport report : reports) {
            List<String> lines = new ArrayList<>();
            for (Device device : report.devices()) {
                String label = DeviceText.label(device);
                lines.add(pad(Wrap.fit(label, deviceWidth), deviceWidth) + GAP
                        + String.format("%" + memoryWidth + "s", DeviceText.memory(device.totalMemory())));
                indented(DeviceText.interProcess(device), textWidth, lines);
                if (verbose) {
                    indented((label.length() > deviceWidth ? label + ": " : "") + DeviceText.details(device), textWidth, lines);
                }
            }
            for (String reason : report.reasons()) {
                lines.addAll(Wrap.lines(reason, textWidth));
            }
            if (lines.isEmpty()) {
                lines.add("no devices");
            }
            boolean disabled = report.status() == ProviderReport.Status.UNAVAILABLE || report.status() == ProviderReport.Status.FAILED;
            if (disabled && !report.setupHint().isEmpty()) {
                Wrap.lines("to enable: " + report.setupHint(), textWidth).forEach(l -> lines.add(style.dim(l)));
            }
            if (verbose) {
                indented("serves " + report.deviceTypes().stream().map(t -> t.name() + "(" + t.code() + ")")
                        .collect(Collectors.joining(", ")) + "; priority " + report.priority() + "; " + report.className(), textWidth, lines);
            }
            out.println(pad(Wrap.fit(report.name(), nameWidth), nameWidth) + GAP + style.status(report.status(), report.status().name())
                    + " ".repeat(statusWidth - report.status().name().length())
                    + GAP + lines.getFirst().stripTrailing());
            lines.stream().skip(1).forEach(l -> out.println((blank + l).stripTrailing()));
        }
    }

    /** Adds {@code text} to {@code lines}, wrapped to {@code width} columns less an indent of two. */
    private static void indented(String text, int width, List<String> lines) {
        Wrap.lines(text, width - GAP.length()).forEach(l -> lines.add(GAP + l));
    }

    private static String pad(String text, int width) {
        return String.format("%-" + width + "s", text);
    }
}
