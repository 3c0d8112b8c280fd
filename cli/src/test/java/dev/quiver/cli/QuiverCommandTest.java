package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the commands in-process with the backends on the class path. */
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
