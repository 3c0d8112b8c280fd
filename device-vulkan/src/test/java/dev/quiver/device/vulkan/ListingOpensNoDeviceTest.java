package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Listing the Vulkan devices and asking each for its inter-process mechanism, in a fresh JVM
 * ({@link ListingMain}), answers from the survey: lavapipe says {@code VULKAN_FD}, and neither LWJGL's Vulkan
 * bindings nor any class that opens a device is loaded.
 */
class ListingOpensNoDeviceTest {
    /** Classes that load only once a device is opened. */
    private static final List<String> OPENING_CLASSES = List.of("dev.quiver.device.vulkan.VulkanInstance ",
            "dev.quiver.device.vulkan.LogicalDevices ", "dev.quiver.device.vulkan.VulkanDevice ", "org.lwjgl.vulkan.");

    @Test
    void theMechanismComesFromTheSurveyWithoutOpeningTheDevice() throws Exception {
        Path log = Files.createTempFile("quiver-vulkan-classes", ".log");
        try {
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-Xlog:class+load=info:file=" + log,
                    "-cp", System.getProperty("java.class.path"), ListingMain.class.getName());
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the JVM finished");
            assertEquals(0, process.exitValue(), out);
            assertTrue(out.lines().anyMatch(line -> line.startsWith("DeferredVulkanDevice ") && line.contains("llvmpipe")
                    && line.endsWith(" VULKAN_FD")), "lavapipe listed from the survey, sharing opaque descriptors:\n" + out);
            String classes = Files.readString(log);
            assertTrue(classes.contains(" dev.quiver.device.vulkan.VulkanSurvey "), "the survey ran");
            for (String name : OPENING_CLASSES) {
                assertFalse(classes.lines().anyMatch(line -> line.contains(" " + name)), name + " was loaded:\n" + out);
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
