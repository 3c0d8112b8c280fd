package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the commands in-process with every backend on the class path (OpenCL on PoCL, Vulkan on lavapipe). */
class QuiverCommandTest {

    @Test
    void devicesListsTheCpuAsUsable() {
        CommandRun result = CommandRun.of("devices");
        assertEquals(0, result.code());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("cpu") && l.contains("USABLE") && l.contains("CPU:-1")), result.out());
    }

    @Test
    void devicesListsEveryVendorBackendWithItsStatus() {
        CommandRun result = CommandRun.of("devices");
        assertEquals(0, result.code());
        for (String backend : List.of("cuda", "rocm", "oneapi", "metal")) {
            assertTrue(result.out().lines().anyMatch(l -> l.startsWith(backend + " ")
                    && (l.contains(" USABLE ") || l.contains(" UNAVAILABLE "))), backend + " in\n" + result.out());
        }
    }

    @Test
    void selftestPassesOnTheCpu() {
        CommandRun result = CommandRun.of("selftest", "--rows", "2000");
        assertEquals(0, result.code(), result.out());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("CPU:-1") && l.endsWith("PASS")), result.out());
    }

    @Test
    void devicesListsTheOpenClDeviceWithItsLimits() {
        CommandRun result = CommandRun.of("devices", "--verbose");
        assertEquals(0, result.code());
        String block = result.block("opencl");
        assertTrue(block.contains(" USABLE ") && block.contains("OPENCL:0") && block.contains("global-memory=")
                && block.contains("max-allocation=") && block.contains("compute-units="), result.out());
    }

    @Test
    void selftestPassesOnTheOpenClDevice() {
        CommandRun result = CommandRun.of("selftest", "--rows", "2000");
        assertEquals(0, result.code(), result.out());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("OPENCL:0") && l.endsWith("PASS")), result.out());
    }

    @Test
    void devicesAndSelftestShowLavapipeWithItsLimits() {
        CommandRun devices = CommandRun.of("devices", "--verbose");
        String block = devices.block("vulkan");
        assertTrue(block.contains(" USABLE ") && block.contains("VULKAN:0 llvmpipe") && block.contains("api=1.")
                && block.contains("maxAllocation=") && block.contains("heaps=#0 "), devices.out());
        CommandRun selftest = CommandRun.of("selftest", "--rows", "2000");
        assertEquals(0, selftest.code(), selftest.out());
        assertTrue(selftest.out().lines().anyMatch(l -> l.startsWith("VULKAN:0 llvmpipe") && l.endsWith("PASS")), selftest.out());
        assertTrue(selftest.out().lines().anyMatch(l -> l.startsWith("VULKAN:0 llvmpipe") && l.contains(": device memory")), selftest.out());
        assertTrue(selftest.out().contains("maxAllocation="), "the device's facts, wrapped under it: " + selftest.out());
        assertTrue(selftest.out().lines().allMatch(l -> l.length() <= 100), "every line fits 100 columns: " + selftest.out());
    }
}
