package dev.quiver.cli;

import dev.quiver.check.ConformanceReport;
import dev.quiver.check.ProducerSignature;
import dev.quiver.check.Violation;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * The two renderings of a conformance report that {@code quiver check} prints: a table for people and
 * JSON for scripts. Immutable.
 *
 * @param library   the library checked
 * @param function  the producer function
 * @param signature its signature
 * @param report    what the checker found
 */
record CheckReport(String library, String function, ProducerSignature signature, ConformanceReport report) {

    /** @return the table rendering, ending with a verdict line */
    String text() {
        StringBuilder out = new StringBuilder();
        String flag = switch (signature) {
            case DEVICE_ARRAY -> "";
            case DEVICE_ARRAY_WITH_SCHEMA -> " --schema";
            case DEVICE_ARRAY_STREAM -> " --stream";
        };
        out.append("quiver check ").append(library).append(' ').append(function).append(flag).append('\n');
        out.append("producer: ").append(signature.c()).append('\n');
        for (String checked : report.checked()) {
            out.append("checked: ").append(checked).append('\n');
        }
        if (!report.violations().isEmpty()) {
            Table table = new Table("RULE", "PATH", "MESSAGE");
            for (Violation v : report.violations()) {
                table.row(v.rule().id(), v.path(), v.message());
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
                table.print(print);
            }
            out.append(bytes.toString(StandardCharsets.UTF_8));
        }
        for (Violation w : report.warnings()) {
            out.append("warning: ").append(w.rule().id()).append(" at ").append(w.path()).append(": ")
                    .append(w.message()).append('\n');
        }
        for (String note : report.notes()) {
            out.append("note: ").append(note).append('\n');
        }
        int rules = report.ruleIds().size();
        int count = report.violations().size();
        int warnings = report.warnings().size();
        out.append(report.conforming() ? "result: CONFORMING (no violations"
                + (warnings == 0 ? "" : ", " + warnings + (warnings == 1 ? " warning" : " warnings")) + ")"
                : "result: NOT CONFORMING: " + count + (count == 1 ? " violation" : " violations") + " of "
                + rules + (rules == 1 ? " rule" : " rules")).append('\n');
        return out.toString();
    }

    /** @return the JSON rendering: one object, with a trailing newline */
    String json() {
        String violations = json(report.violations());
        String warnings = json(report.warnings());
        return "{\n"
                + "  \"library\": " + Json.quote(library) + ",\n"
                + "  \"function\": " + Json.quote(function) + ",\n"
                + "  \"signature\": " + Json.quote(signature.c()) + ",\n"
                + "  \"conforming\": " + report.conforming() + ",\n"
                + "  \"violations\": [" + violations + (violations.isEmpty() ? "" : "\n  ") + "],\n"
                + "  \"warnings\": [" + warnings + (warnings.isEmpty() ? "" : "\n  ") + "],\n"
                + "  \"checked\": " + Json.strings(report.checked()) + ",\n"
                + "  \"notes\": " + Json.strings(report.notes()) + "\n"
                + "}\n";
    }

    private static String json(java.util.List<Violation> list) {
        return list.stream()
                .map(v -> "\n    {\"rule\": " + Json.quote(v.rule().id()) + ", \"path\": " + Json.quote(v.path())
                        + ", \"message\": " + Json.quote(v.message()) + "}")
                .collect(Collectors.joining(","));
    }
}
