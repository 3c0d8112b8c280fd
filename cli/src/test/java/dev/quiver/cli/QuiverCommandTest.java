package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the commands in-process with every backend on the class path (OpenCL on PoCL, Vulkan on lavapipe). */
class QuiverCommandTest {

    @Test
    void devicesListsTheCpuAsUsable() {
        Result result = run("devices");
        assertEquals(0, result.code);
        assertTrue(result.out.lines().anyMatch(l -> l.startsWith("cpu") && l.contains("USABLE") && l.contains("CPU:-1")), result.out);
    }

    @Test
    void devicesListsEveryVendorBackendWithItsStatus() {
        Result result = run("devices");
        assertEquals(0, result.code);
        for (String backend : List.of("cuda", "rocm", "oneapi", "metal")) {
            assertTrue(result.out.lines().anyMatch(l -> l.startsWith(backend + " ")
                    && (l.contains(" USABLE ") || l.contains(" UNAVAILABLE "))), backend + " in\n" + result.out);
        }
    }

    @Test
    void selftestPassesOnTheCpu() {
        Result result = run("selftest", "--rows", "2000");
        assertEquals(0, result.code, result.out);
        assertTrue(result.out.lines().anyMatch(l -> l.startsWith("CPU:-1") && l.endsWith("PASS")), result.out);
    }

    @Test
    void devicesListsTheOpenClDeviceWithItsLimits() {
        Result result = run("devices");
        assertEquals(0, result.code);
        assertTrue(result.out.lines().anyMatch(l -> l.startsWith("opencl") && l.contains("USABLE") && l.contains("OPENCL:0")
                && l.contains("global-memory=") && l.contains("max-allocation=") && l.contains("compute-units=")), result.out);
    }

    @Test
    void selftestPassesOnTheOpenClDevice() {
        Result result = run("selftest", "--rows", "2000");
        assertEquals(0, result.code, result.out);
        assertTrue(result.out.lines().anyMatch(l -> l.startsWith("OPENCL:0") && l.endsWith("PASS")), result.out);
    }

    @Test
    void devicesAndSelftestShowLavapipeWithItsLimits() {
        Result devices = run("devices");
        assertTrue(devices.out.lines().anyMatch(l -> l.startsWith("vulkan") && l.contains("USABLE") && l.contains("VULKAN:0 llvmpipe")
                && l.contains("api=1.") && l.contains("maxAllocation=") && l.contains("heaps=#0 ")), devices.out);
        Result selftest = run("selftest", "--rows", "2000");
        assertEquals(0, selftest.code, selftest.out);
        assertTrue(selftest.out.lines().anyMatch(l -> l.startsWith("VULKAN:0 llvmpipe") && l.endsWith("PASS")), selftest.out);
        assertTrue(selftest.out.lines().anyMatch(l -> l.startsWith("VULKAN:0 llvmpipe") && l.contains("maxAllocation=")), selftest.out);
    }

    private record Result(int code, String out) {}

    private static Result run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            int code = Quiver.run(args);
            return new Result(code, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(saved);
        }
    }
}
