package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user's mistakes print: a usage error is its message and a pointer to {@code --help} (exit 2), a failure
 * while running is one line with its reason (exit 1); neither prints a stack trace or the whole usage text.
 */
class FailuresTest {
    @Test
    void aUsageErrorIsItsMessageAndAPointerToHelp() {
        CommandRun run = CommandRun.of("selftest", "--rows", "0");
        assertEquals(2, run.code());
        assertEquals(java.util.List.of("--rows must be between 1 and 10000000, not 0", "Try 'quiver selftest --help' for the options."),
                run.err().lines().toList());
    }

    @Test
    void aUriThatIsNoFlightAddressIsAUsageError() {
        CommandRun run = CommandRun.of("flight", "get", "notauri", "TICKET");
        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().startsWith("URI must be grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT, not notauri"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void aUserWithoutAPasswordIsAUsageError() {
        CommandRun run = CommandRun.of("flight", "get", "grpc+tcp://127.0.0.1:1", "TICKET", "--user", "ada");
        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().contains("--user ada needs a password"), run.err());
    }

    @Test
    void aMissingFileIsOneLineNamingIt() {
        CommandRun run = CommandRun.of("flight", "serve", "--file", "/nonexistent/quiver.arrow", "--port", "0");
        assertEquals(1, run.code(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("quiver flight serve: no such file: /nonexistent/quiver.arrow"), run.err());
    }

    @Test
    void reasonsJoinCausesWithoutRepeats() {
        RuntimeException failure = new RuntimeException("fetch failed", new java.io.IOException("connection reset"));
        assertEquals("fetch failed: connection reset", Failures.reasons(failure));
        assertEquals("IllegalStateException", Failures.reasons(new IllegalStateException()));
    }
}
