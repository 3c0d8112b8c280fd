package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the commands in-process with the CPU backend on the class path. */
class QuiverCommandTest {

    @Test
    void devicesListsTheCpuAsUsable() {
        CommandRun result = CommandRun.of("devices");
        assertEquals(0, result.code());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("cpu") && l.contains("USABLE") && l.contains("CPU:-1")), result.out());
    }

    @Test
    void selftestPassesOnTheCpu() {
        CommandRun result = CommandRun.of("selftest", "--rows", "2000");
        assertEquals(0, result.code(), result.out());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("CPU:-1") && l.endsWith("PASS")), result.out());
    }
}
