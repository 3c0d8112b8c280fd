package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Asking for one device probes only the backends of its type, with every backend on the class path: in a
 * fresh JVM ({@link LookupMain}), no other backend's native library is mapped and none of its probing
 * classes is loaded; the CPU loads no LWJGL class at all.
 */
class LookupLoadsOnlyItsBackendTest {
    /** A native library of each backend but the CPU's (Mesa's lavapipe and PoCL share libLLVM). */
    private static final List<String> OPENCL_LIBRARIES = List.of("libOpenCL.so", "libpocl.so");
    private static final List<String> VULKAN_LIBRARIES = List.of("libvulkan.so", "libvulkan_lvp.so");
    private static final List<String> OTHER_LIBRARIES = List.of("libamdhip64.so", "libze_loader.so", "libcuda.so");
    /** Classes that load only once a backend's probe runs. */
    private static final List<String> OPENCL_CLASSES = List.of("dev.quiver.device.opencl.OpenClSystem ");
    private static final List<String> VULKAN_CLASSES = List.of("dev.quiver.device.vulkan.VulkanListing ", "org.lwjgl.");
    private static final List<String> OTHER_CLASSES = List.of("dev.quiver.device.rocm.HipRuntime ",
            "dev.quiver.device.oneapi.LevelZero ", "dev.quiver.device.cuda.CudaDriver ");

    @Test
    void theCpuLoadsNoOtherBackend() throws Exception {
        Child child = run("CPU", "-1");
        assertTrue(child.out.contains("values [1, null, 3]"), child.out);
        assertNone(child, OPENCL_LIBRARIES, VULKAN_LIBRARIES, OTHER_LIBRARIES);
        assertNotLoaded(child, OPENCL_CLASSES, VULKAN_CLASSES, OTHER_CLASSES);
    }

    @Test
    void vulkanLoadsNeitherOpenClNorTheOthers() throws Exception {
        Child child = run("VULKAN", "0");
        assertTrue(child.out.contains("mapped") && child.out.contains("libvulkan.so"), child.out);
        assertNone(child, OPENCL_LIBRARIES, OTHER_LIBRARIES);
        assertNotLoaded(child, OPENCL_CLASSES, OTHER_CLASSES);
    }

    @Test
    void openClLoadsNeitherVulkanNorTheOthers() throws Exception {
        Child child = run("OPENCL", "0");
        assertTrue(child.out.contains("libOpenCL.so"), child.out);
        assertNone(child, VULKAN_LIBRARIES, OTHER_LIBRARIES);
        assertNotLoaded(child, VULKAN_CLASSES, OTHER_CLASSES);
    }

    @SafeVarargs
    private static void assertNone(Child child, List<String>... libraries) {
        for (List<String> group : libraries) {
            for (String library : group) {
                assertFalse(child.out.lines().anyMatch(line -> line.startsWith("mapped ") && line.contains("/" + library)),
                        library + " is mapped:\n" + child.out);
            }
        }
    }

    @SafeVarargs
    private static void assertNotLoaded(Child child, List<String>... classes) {
        for (List<String> group : classes) {
            for (String name : group) {
                assertFalse(child.classes.lines().anyMatch(line -> line.contains(" " + name)), name + " was loaded");
            }
        }
    }

    private record Child(String out, String classes) {}

    private static Child run(String type, String id) throws IOException, InterruptedException {
        Path log = Files.createTempFile("quiver-classes", ".log");
        try {
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-Xlog:class+load=info:file=" + log,
                    "-cp", System.getProperty("java.class.path"), LookupMain.class.getName(), type, id);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the JVM finished");
            assertEquals(0, process.exitValue(), out);
            return new Child(out, Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
