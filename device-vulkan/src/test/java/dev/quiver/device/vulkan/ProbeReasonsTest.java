package dev.quiver.device.vulkan;

import dev.quiver.vulkanprobe.ProbeMain;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probe in fresh JVMs whose environment lacks one piece of a working Vulkan stack (the loader, every
 * driver, the validation layer), each made missing for real through the loader's own settings: it never
 * throws and says precisely what is missing. And where everything is present it prints no warning at all,
 * on the class path and on the module path: Quiver sets LWJGL's FFM memory backend itself, and leaves
 * settings the application made alone.
 */
class ProbeReasonsTest {

    @Test
    void aMissingLoaderIsNamed() throws Exception {
        Child child = run(List.of("-Dorg.lwjgl.vulkan.libname=libvulkan-absent.so.1"), Map.of());
        assertTrue(child.out.contains("UNAVAILABLE"), child.toString());
        assertTrue(child.out.contains("reason Vulkan loader not found: libvulkan-absent.so.1 could not be loaded"), child.toString());
    }

    @Test
    void noDriverIsNamed() throws Exception {
        Child child = run(List.of(), Map.of("VK_ICD_FILENAMES", "/nonexistent/quiver-no-icd.json",
                "VK_DRIVER_FILES", "/nonexistent/quiver-no-icd.json"));
        assertTrue(child.out.contains("UNAVAILABLE"), child.toString());
        assertTrue(child.out.contains("reason no Vulkan driver"), child.toString());
    }

    @Test
    void aMissingValidationLayerIsNamed() throws Exception {
        Child child = run(List.of("-D" + ValidationLog.PROPERTY + "=true"), Map.of("VK_LAYER_PATH", "/nonexistent/quiver-no-layers"));
        assertTrue(child.out.contains("UNAVAILABLE"), child.toString());
        assertTrue(child.out.contains("reason Vulkan validation was requested (-Dquiver.vulkan.validation=true) but the layer "
                + "VK_LAYER_KHRONOS_validation is not installed"), child.toString());
    }

    @Test
    void aWorkingStackProbesWithoutAnyWarning() throws Exception {
        Child child = run(List.of(), Map.of());
        assertTrue(child.out.contains("AVAILABLE") && child.out.contains("device llvmpipe"), child.toString());
        assertTrue(child.out.contains("memoryBackend=" + LwjglSetup.MEMORY_BACKEND), "Quiver chose the FFM backend: " + child);
        assertTrue(child.out.contains("libname=libvulkan.so.1"), child.toString());
        assertEquals("", child.err, "nothing on standard error (no sun.misc.Unsafe or native-access warning)");
    }

    @Test
    void lwjglOpensTheLoaderByItsPathSoItNeverWalksTheLoadedLibraries() throws Exception {
        // LWJGL's debug output says how it found each library; "Loaded from system paths" is the route on
        // which it looks the path up with dlopen inside dl_iterate_phdr, the loader deadlock
        Child child = run(List.of("-Dorg.lwjgl.util.Debug=true"), Map.of(), "open");
        assertTrue(child.out.contains("opened llvmpipe"), child.toString());
        String libname = child.out.lines().filter(line -> line.startsWith("libname=")).findFirst().orElseThrow().substring("libname=".length());
        Path loader = Path.of(libname);
        assertTrue(loader.isAbsolute() && loader.getFileName().toString().startsWith(LwjglSetup.LINUX_LOADER), "an absolute path: " + child);
        assertTrue(child.err.contains("Loading library: " + libname), "LWJGL loaded the loader by that path: " + child);
        assertFalse(child.err.contains("Loaded from system paths"), "LWJGL looked a library up on the system paths: " + child);
    }

    @Test
    void settingsTheApplicationMadeAreKept() throws Exception {
        Child child = run(List.of("-Dorg.lwjgl.vulkan.libname=libvulkan.so",
                "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"), Map.of());
        assertTrue(child.out.contains("AVAILABLE"), child.toString());
        assertTrue(child.out.contains("libname=libvulkan.so\n"), "the application's loader name stayed: " + child);
        assertTrue(child.out.contains("memoryBackend=org.lwjgl.system.MemoryBackendFFM\n"), "the application's backend stayed: " + child);
        assertEquals("", child.err);
    }

    @Test
    void onTheModulePathItResolvesLwjglAndItsNativesWithoutWarnings() throws Exception {
        List<String> modules = new ArrayList<>(List.of(location(VulkanProvider.class), location(dev.quiver.spi.DeviceProvider.class),
                location(dev.quiver.device.ffm.HostCopy.class)));
        for (String entry : System.getProperty("surefire.test.class.path", "").split(File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().startsWith("lwjgl-")) {
                modules.add(entry);
            }
        }
        assertEquals(3, modules.size() - 3, "LWJGL's core, natives and Vulkan jars on the test class path: " + modules);
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=dev.quiver.device.vulkan,dev.quiver.device.ffm,org.lwjgl,ALL-UNNAMED",
                "--module-path", String.join(File.pathSeparator, modules),
                "--add-modules", "dev.quiver.device.vulkan",
                "-cp", location(ProbeMain.class), ProbeMain.class.getName());
        Child child = start(command, Map.of());
        assertTrue(child.out.contains("AVAILABLE") && child.out.contains("device llvmpipe"), command + "\n" + child);
        assertEquals("", child.err, "no warning on the module path either");
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private record Child(String out, String err) {
        @Override
        public String toString() {
            return "stdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private static Child run(List<String> properties, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(properties);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ProbeMain.class.getName()));
        command.addAll(List.of(arguments));
        return start(command, environment);
    }

    private static Child start(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        String out = read(process.getInputStream());
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the probe did not finish: " + command);
        }
        Child child = new Child(out, err.join());
        assertEquals(0, process.exitValue(), "the probe never throws: " + child);
        return child;
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
