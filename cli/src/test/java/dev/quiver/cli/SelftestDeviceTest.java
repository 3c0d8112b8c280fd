package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code quiver selftest --device} tests only the devices it names; a name that matches none is a usage error. */
class SelftestDeviceTest {
    @Test
    void onlyTheNamedDevicesAreTested() {
        CommandRun run = CommandRun.of("selftest", "--rows", "100", "--device", "opencl", "--device", "cpu");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().lines().anyMatch(line -> line.startsWith("OPENCL:0 ") && line.endsWith("PASS")), run.out());
        assertTrue(run.out().lines().anyMatch(line -> line.startsWith("CPU:-1 ") && line.endsWith("PASS")), run.out());
        assertTrue(run.out().lines().noneMatch(line -> line.startsWith("VULKAN:")), run.out());
        assertTrue(run.out().contains("all 2 device(s) passed"), run.out());
    }

    @Test
    void aNameThatMatchesNoDeviceIsAUsageError() {
        CommandRun unknown = CommandRun.of("selftest", "--device", "nosuch");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("--device nosuch: no device type nosuch"), unknown.err());
        CommandRun absent = CommandRun.of("selftest", "--device", "vulkan:7");
        assertEquals(2, absent.code());
        assertTrue(absent.err().startsWith("--device vulkan:7: no such usable device here"), absent.err());
    }
}
