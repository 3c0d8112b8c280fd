package dev.quiver.device.opencl;

import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the probe reports, on this machine's driver and in fresh JVMs where the ICD loader is pointed at no
 * driver, or at a test double driver ({@code test_double_icd.c}) whose one platform has no device.
 */
class OpenClProbeTest {

    @Test
    void findsTheInstalledDriverOnceAndReportsItsLimits() {
        ProbeResult first = new OpenClProvider().probe();
        ProbeResult.Available available = assertInstanceOf(ProbeResult.Available.class, first,
                "this machine has an OpenCL driver (PoCL in CI): " + first);
        assertSame(first, new OpenClProvider().probe(), "the probe runs once per process");
        OpenClDevice device = (OpenClDevice) available.devices().getFirst();
        Map<String, String> properties = device.properties();
        for (String key : List.of("platform", "vendor", "version", "global-memory", "max-allocation", "compute-units")) {
            assertTrue(properties.containsKey(key) && !properties.get(key).isBlank(), key + " in " + properties);
        }
        assertTrue(device.totalMemory() > 0, "global memory size");
        assertEquals(0, device.deviceId(), "the first device has id 0");
    }

    @Test
    void aMissingLibraryIsNamed() {
        ProbeResult result = OpenClProbe.probe("libQuiverAbsentOpenCL.so.1");
        ProbeResult.Unavailable unavailable = assertInstanceOf(ProbeResult.Unavailable.class, result);
        assertTrue(unavailable.reasons().getFirst().startsWith("libQuiverAbsentOpenCL.so.1 not found"), unavailable.reasons().toString());
    }

    @Test
    void aMissingLibraryIsNamedByTheProvider() throws Exception {
        List<String> lines = probeInFreshJvm(Map.of(), List.of("-D" + OpenClSystem.LIBRARY_PROPERTY + "=libQuiverAbsentOpenCL.so.1"));
        assertEquals("UNAVAILABLE", lines.getFirst(), lines.toString());
        assertTrue(lines.get(1).startsWith("libQuiverAbsentOpenCL.so.1 not found (install an OpenCL ICD loader"), lines.toString());
    }

    @Test
    void noDriverMeansNoPlatform(@TempDir Path emptyVendors) throws Exception {
        List<String> lines = probeInFreshJvm(Map.of("OCL_ICD_VENDORS", emptyVendors.toString()), List.of());
        assertEquals(List.of("UNAVAILABLE", "no OpenCL platform (ICD loader found no driver; install one, for example pocl-opencl-icd)"), lines);
    }

    @Test
    void aPlatformWithoutDevicesIsNamed() throws Exception {
        Path driver = CLibrary.compileOnly(CLibrary.readResources(OpenClProbeTest.class, List.of("test_double_icd.c")), List.of());
        List<String> lines = probeInFreshJvm(Map.of("OCL_ICD_VENDORS", driver.toString()), List.of());
        assertEquals(List.of("UNAVAILABLE", "no device on platform Quiver test double platform"), lines);
    }

    private static List<String> probeInFreshJvm(Map<String, String> environment, List<String> properties)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(properties);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ProbeReportMain.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "probe JVM finished");
        assertEquals(0, process.exitValue(), output);
        return output.lines().toList();
    }
}
