package dev.quiver.cli;

import dev.quiver.BackendSelection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend selection that names no backend is a usage error (exit 2, one line naming the names and the
 * backends there are), not a silent exclusion of every backend; known names, chosen or excluded, pass.
 */
@Isolated("sets the quiver.backends system property and swaps System.out and System.err")
class BackendNamesTest {
    @AfterEach
    void clear() {
        System.clearProperty(BackendSelection.PROPERTY);
    }

    @Test
    void anUnknownNameIsAUsageErrorNamingTheBackends() {
        System.setProperty(BackendSelection.PROPERTY, "cpu,nosuch,-vulkn");
        CommandRun run = CommandRun.of("devices");
        assertEquals(2, run.code());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("quiver: QUIVER_BACKENDS names nosuch, vulkn, which are not backends here; the backends are "),
                run.err());
        assertTrue(run.err().contains("opencl") && run.err().contains("vulkan"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void knownNamesPass() {
        System.setProperty(BackendSelection.PROPERTY, "cpu,-vulkan");
        CommandRun run = CommandRun.of("devices");
        assertEquals(0, run.code(), run.err());
        assertEquals("", run.err());
    }
}
