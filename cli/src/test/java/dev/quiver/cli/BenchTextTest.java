package dev.quiver.cli;

import dev.quiver.cli.bench.Comparison;
import dev.quiver.cli.bench.Measure;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table of {@code quiver bench}: 100 columns by default, every quartile with {@code --wide}. */
class BenchTextTest {
    private static final Measure QUIVER = new Measure(308_180, 307_910, 311_360, 300_000, 320_000, 15, 1_000_000_000L, true);
    private static final Measure BASELINE = new Measure(180_860, 180_740, 181_190, 180_000, 190_000, 15, 1_000_000_000L, false);
    private static final Measure RATIO = new Measure(1.70, 1.60, 1.82, 1.5, 1.9, 15, 2_000_000_000L, false);
    private static final List<BenchRow> ROWS = List.of(
            new BenchRow("copyTo + copyToHost 1 MiB, VULKAN:0, as before (no pools, no pinning)", "Quiver, reused buffers",
                    new Comparison(QUIVER, BASELINE, RATIO)),
            new BenchRow("export+import+release 1 x int32, 1000 rows", "C", new Comparison(QUIVER, BASELINE, RATIO)));

    @Test
    void theDefaultTableKeepsTo100ColumnsAndWrapsLongNames() {
        List<String> lines = print(false);
        for (String line : lines) {
            assertTrue(line.length() <= 100, line.length() + " columns: " + line);
        }
        assertTrue(lines.getFirst().matches("BENCHMARK \\(vs BASELINE\\) +QUIVER +BASELINE +RATIO \\[QUARTILES] +FLAG"), lines.getFirst());
        assertTrue(lines.get(1).matches("copyTo \\+ copyToHost 1 MiB, VULKAN:0, .* +308\\.18 us +180\\.86 us +1\\.70 \\[1\\.60 - 1\\.82] +"
                + "\\+-6% UNSETTLED"), lines.get(1));
        int second = lines.indexOf(lines.stream().filter(l -> l.startsWith("export")).findFirst().orElseThrow());
        String name = String.join(" ", lines.subList(1, second).stream()
                .map(l -> l.length() > 2 && l.startsWith("  ") ? l.strip() : l.substring(0, l.indexOf("  ")))
                .toList());
        assertEquals("copyTo + copyToHost 1 MiB, VULKAN:0, as before (no pools, no pinning) vs Quiver, reused buffers",
                name.replaceAll(" +", " "));
        assertTrue(lines.get(second).startsWith("export+import+release 1 x int32, 1000 rows"), lines.get(second));
    }

    @Test
    void wideShowsEveryQuartileOnOneLinePerBenchmark() {
        List<String> lines = print(true);
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.getFirst().matches("BENCHMARK +QUIVER +BASELINE +BASELINE TIME +RATIO +FLAG"), lines.getFirst());
        assertTrue(lines.get(1).contains("308.18 us [307.91 us - 311.36 us]  Quiver, reused buffers  180.86 us [180.74 us - 181.19 us]"),
                lines.get(1));
        assertTrue(lines.get(1).endsWith("WIDE SPREAD (+-6%) UNSETTLED"), lines.get(1));
    }

    private static List<String> print(boolean wide) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            BenchText.print(ROWS, wide, out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
