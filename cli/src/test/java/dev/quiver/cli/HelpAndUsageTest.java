package dev.quiver.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --help} works on every command; bad arguments are usage errors with a message, never a stack trace. */
class HelpAndUsageTest {

    @ParameterizedTest
    @ValueSource(strings = {"devices", "selftest", "bench", "check", "flight", "flight serve", "flight get", "flight list", "flight put", "share", "attach"})
    void helpOnEveryCommandExitsZeroAndDescribesIt(String command) {
        CommandRun run = CommandRun.of((command + " --help").split(" "));
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("Usage: quiver " + command), run.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "0", "20000000", "many"})
    void selftestRowsOutOfRangeIsAUsageError(String rows) {
        CommandRun run = CommandRun.of("selftest", "--rows", rows);
        assertEquals(2, run.code(), run.out() + run.err());
        assertTrue(run.err().contains("--rows"), run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
    }

    @Test
    void versionNamesTheArtifactVersionAndTheJdk() {
        CommandRun run = CommandRun.of("--version");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().matches("(?s)quiver \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R.*"), "as Maven filtered it: " + run.out());
        assertTrue(run.out().contains("JDK " + Runtime.version()), run.out());
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        CommandRun run = CommandRun.of("frobnicate");
        assertEquals(2, run.code());
        assertFalse(run.err().contains("\tat "), run.err());
    }
}
