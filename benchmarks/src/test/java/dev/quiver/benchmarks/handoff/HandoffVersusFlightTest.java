package dev.quiver.benchmarks.handoff;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handoff harness at tiny sizes, so that it cannot rot: an owner in a child JVM, a one-row batch and a
 * 1 MiB one, two timings per route. What is checked is the shape of what it prints, never a figure: a line
 * per size, every time positive, each minimum at most its median, and the ratios those medians give.
 */
class HandoffVersusFlightTest {
    private static final Pattern LINE = Pattern.compile(
            "\\| (.+?) \\| (.+?) \\| ([0-9.]+) \\(([0-9.]+)\\) \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) \\(([0-9.]+)\\) \\| ([0-9.]+) \\| ([0-9.]+) \\|");

    @Test
    void printsAWellFormedTableWithPositiveTimes() throws Exception {
        HandoffVersusFlight.Options options = HandoffVersusFlight.Options.parse("--rows", "1,131072", "--handoffs", "2", "--flight-runs", "2");
        List<HandoffRow> rows = HandoffVersusFlight.run(options);
        String table = HandoffTable.format(rows);
        System.out.print(table);

        assertEquals(List.of(1L, 131_072L), rows.stream().map(HandoffRow::rows).toList());
        for (HandoffRow row : rows) {
            TimingAssertions.assertTimings(row, row.handoff(), row.withConnect(), List.of(row.sameHost(), row.bytes()));
            assertEquals(2, row.handoff().count());
            assertEquals(2, row.bytes().count());
        }

        List<String> lines = table.lines().toList();
        assertEquals("share handoffs: 2 per size; Flight fetches: 2 per size and route", lines.get(0));
        assertEquals("", lines.get(1));
        assertEquals(HandoffTable.HEADER, lines.get(2));
        assertEquals("|---|---|---|---|---|---|---|---|", lines.get(3));
        assertEquals(4 + rows.size(), lines.size());
        assertEquals(List.of("1 row", "131,072 rows"), lines.subList(4, lines.size()).stream().map(l -> cells(l).group(1)).toList());
        assertEquals(List.of("8 B", "1 MiB"), lines.subList(4, lines.size()).stream().map(l -> cells(l).group(2)).toList());
        for (String line : lines.subList(4, lines.size())) {
            Matcher cells = cells(line);
            for (int group = 3; group <= 10; group++) {
                assertTrue(Double.parseDouble(cells.group(group)) > 0, line + ": cell " + group + " is not positive");
            }
            double handoff = Double.parseDouble(cells.group(3));
            double sameHost = Double.parseDouble(cells.group(6));
            double doGet = Double.parseDouble(cells.group(7));
            TimingAssertions.assertRatio(doGet, handoff, cells.group(9), line + ": DoGet / handoff");
            TimingAssertions.assertRatio(doGet, sameHost, cells.group(10), line + ": DoGet / same-host");
        }
    }

    @Test
    void refusesArgumentsItDoesNotKnowNamingThem() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HandoffVersusFlight.Options.parse("--size", "1"))
                .getMessage().contains("--size"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HandoffVersusFlight.Options.parse("--rows", "0"))
                .getMessage().contains("--rows"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HandoffVersusFlight.Options.parse("--handoffs", "many"))
                .getMessage().contains("many"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HandoffVersusFlight.Options.parse("--flight-runs"))
                .getMessage().contains("needs a value"));
    }

    private static Matcher cells(String line) {
        Matcher matcher = LINE.matcher(line);
        assertTrue(matcher.matches(), "not a line of the table: " + line);
        return matcher;
    }
}
