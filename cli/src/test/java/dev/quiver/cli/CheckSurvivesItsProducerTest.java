package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver check} runs the producer in a child JVM: a producer that crashes, ends the process or hangs
 * is a verdict (exit code 1, rule {@code producer.crash} or {@code producer.timeout}) and the checker lives
 * on; a conforming or breaking producer gets the same report as in-process.
 */
class CheckSurvivesItsProducerTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "crash_segfault   | crashed the process it ran in with SIGSEGV",
            "crash_abort      | ended the process it ran in with signal 6 (SIGABRT)",
            "crash_exit       | ended the process it ran in with exit status 3, before the check finished",
            "crash_exit_zero  | ended the process it ran in with exit status 0, before the check finished",
            "crash_in_release | crashed the process it ran in with SIGSEGV"})
    void aProducerThatEndsTheProcessIsAVerdict(String producer, String how) throws IOException {
        List<Path> logsBefore = crashLogsInWorkingDirectory();
        CommandRun run = CommandRun.of("check", CheckProducers.path(), producer, "--schema");
        assertEquals(1, run.code(), run.out() + run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.matches("producer\\.crash +producer +" + java.util.regex.Pattern.quote(how))),
                run.out());
        assertEquals("result: NOT CONFORMING: 1 violation of 1 rule", lines.getLast(), run.out());
        assertFalse(run.out().contains("A fatal error has been detected"), "the JVM's banner is not passed on: " + run.out());
        assertEquals(logsBefore, crashLogsInWorkingDirectory(), "no hs_err file left behind");
    }

    @Test
    void aSegfaultNamesTheFrameFromTheCrashLog() {
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "crash_segfault", "--schema", "--json");
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("\"rule\": \"producer.crash\", \"path\": \"producer\""), run.out());
        assertTrue(run.out().matches("(?s).*\"the JVM's crash log: SIGSEGV \\(0xb\\) at pc=0x[0-9a-f]+; problematic frame: "
                + "C +\\[lib[^\\]]*\\.so\\+0x[0-9a-f]+\\] +crash_segfault\\+0x[0-9a-f]+\".*"), run.out());
    }

    @Test
    void aHangingProducerIsStoppedAfterTheTimeout() {
        long start = System.nanoTime();
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "hang_forever", "--schema", "--timeout", "3");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("producer.timeout"), run.out());
        assertTrue(run.out().contains("did not finish within 3 s: the checking process was stopped"), run.out());
        assertTrue(seconds < 60, "stopped after " + seconds + " s");
    }

    @Test
    void verboseKeepsTheCrashLogAndSaysWhere() throws IOException {
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "crash_segfault", "--schema", "--verbose");
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("A fatal error has been detected"), "the child's output is shown: " + run.out());
        String kept = run.out().lines().filter(l -> l.startsWith("note: crash log kept in ")).findFirst().orElseThrow()
                .substring("note: crash log kept in ".length());
        Path directory = Path.of(kept);
        try (Stream<Path> files = Files.list(directory)) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("hs_err_pid")), kept);
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    @Test
    void aConformingProducerGetsTheSameReportAsInProcess() {
        CommandRun child = CommandRun.of("check", CheckProducers.path(), "produce_batch", "--schema");
        CommandRun here = CommandRun.of("check", CheckProducers.path(), "produce_batch", "--schema", "--in-process");
        assertEquals(0, child.code(), child.out() + child.err());
        assertEquals(here.out(), child.out());
    }

    @Test
    void violationsFoundInTheChildAreReportedWithTheirExitCode() {
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "reserved_not_zeroed", "--schema", "--json");
        assertEquals(1, run.code(), run.out() + run.err());
        assertEquals(java.util.Set.of("device.reserved"), CheckProducers.rules(run.out()), run.out());
    }

    @Test
    void aZeroTimeoutIsAUsageError() {
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "produce_batch", "--timeout", "0");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("--timeout must be at least 1 second, not 0"), run.err());
    }

    private static List<Path> crashLogsInWorkingDirectory() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(""))) {
            return files.filter(f -> f.getFileName().toString().startsWith("hs_err")).sorted().toList();
        }
    }
}
