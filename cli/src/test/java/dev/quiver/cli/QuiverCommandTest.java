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
        CommandRun result = CommandRun.of("devices");
        assertEquals(0, result.code());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("opencl") && l.contains("USABLE") && l.contains("OPENCL:0")
                && l.contains("global-memory=") && l.contains("max-allocation=") && l.contains("compute-units=")), result.out());
    }

    @Test
    void selftestPassesOnTheOpenClDevice() {
        CommandRun result = CommandRun.of("selftest", "--rows", "2000");
        assertEquals(0, result.code(), result.out());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("OPENCL:0") && l.endsWith("PASS")), result.out());
    }

    @Test
    void devicesAndSelftestShowLavapipeWithItsLimits() {
        CommandRun devices = CommandRun.of("devices");
        assertTrue(devices.out().lines().anyMatch(l -> l.startsWith("vulkan") && l.contains("USABLE") && l.contains("VULKAN:0 llvmpipe")
                && l.contains("api=1.") && l.contains("maxAllocation=") && l.contains("heaps=#0 ")), devices.out());
        CommandRun selftest = CommandRun.of("selftest", "--rows", "2000");
        assertEquals(0, selftest.code(), selftest.out());
        assertTrue(selftest.out().lines().anyMatch(l -> l.startsWith("VULKAN:0 llvmpipe") && l.endsWith("PASS")), selftest.out());
        assertTrue(selftest.out().lines().anyMatch(l -> l.startsWith("VULKAN:0 llvmpipe") && l.contains("maxAllocation=")), selftest.out());
    }
}
