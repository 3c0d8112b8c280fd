package dev.quiver.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver bench --flight} with 1 MiB batches, in this JVM (flight is on the test class path, as the launcher
 * puts it for this command): the table has the floor, plain Arrow Java and Quiver rows with positive MiB/s and
 * ratios to the floor, the floor's own ratio 1.00; {@code --json} has the same three rows; a size past 1 GiB and
 * {@code --memory} with {@code --flight} are usage errors.
 */
class FlightBenchTest {
    private static final List<String> PATHS = List.of("TCP floor", "plain Arrow Java", "Quiver to CPU");

    @Test
    void theTableHasTheFloorPlainArrowJavaAndQuiverWithPositiveRates() {
        CommandRun run = CommandRun.of("bench", "--flight", "--sizes", "1");
        assertEquals(0, run.code(), run.err());
        for (String path : PATHS) {
            Matcher row = Pattern.compile("(?m)^1 MiB +64 +" + Pattern.quote(path) + " +(\\d+) \\[(\\d+) - (\\d+)] +(\\d+\\.\\d\\d)$").matcher(run.out());
            assertTrue(row.find(), path + " in\n" + run.out());
            for (int group = 1; group <= 3; group++) {
                assertTrue(Long.parseLong(row.group(group)) > 0, path + ": " + row.group());
            }
            double toFloor = Double.parseDouble(row.group(4));
            assertTrue(toFloor > 0, path + ": " + row.group());
            if (path.equals("TCP floor")) {
                assertEquals(1.0, toFloor, 1e-9, row.group());
            }
        }
        assertTrue(run.err().contains("quiver bench --flight: 1 MiB batches done"), run.err());
    }

    @Test
    void jsonHasTheSameThreeRows() throws Exception {
        CommandRun run = CommandRun.of("bench", "--flight", "--sizes", "1", "--json");
        assertEquals(0, run.code(), run.err());
        JsonNode rows = new ObjectMapper().readTree(run.out()).get("rows");
        assertEquals(3, rows.size(), run.out());
        for (int i = 0; i < 3; i++) {
            JsonNode row = rows.get(i);
            assertEquals(PATHS.get(i), row.get("path").asText());
            assertEquals(1, row.get("batchMib").asInt());
            assertEquals(64, row.get("batches").asInt());
            assertTrue(row.get("bytes").asLong() > 48L << 20, "about 64 MiB: " + row);
            assertTrue(row.get("mibPerSecond").get("median").asDouble() > 0, row.toString());
            assertTrue(row.get("toFloor").asDouble() > 0, row.toString());
        }
    }

    @Test
    void aSizePastOneGibAndMemoryWithFlightAreUsageErrors() {
        for (String[] args : List.of(new String[] {"bench", "--flight", "--sizes", "2048"}, new String[] {"bench", "--flight", "--memory"})) {
            CommandRun run = CommandRun.of(args);
            assertEquals(2, run.code(), run.out() + run.err());
            assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        }
    }
}
