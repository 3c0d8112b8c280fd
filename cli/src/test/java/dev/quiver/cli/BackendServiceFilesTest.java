package dev.quiver.cli;

import dev.quiver.spi.DeviceProvider;
import org.junit.jupiter.api.Test;

import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On the class path (as these tests run) providers are found through {@code META-INF/services}, not
 * {@code module-info}: every backend's jar names its provider there.
 */
class BackendServiceFilesTest {
    @Test
    void theClassPathFindsEveryBackend() {
        Set<String> found = ServiceLoader.load(DeviceProvider.class).stream()
                .map(provider -> provider.type().getName())
                .collect(Collectors.toSet());
        Set<String> backends = Set.of("cpu.CpuProvider", "opencl.OpenClProvider", "vulkan.VulkanProvider",
                "cuda.CudaProvider", "rocm.RocmProvider", "oneapi.OneApiProvider", "metal.MetalProvider");
        for (String backend : backends) {
            assertTrue(found.contains("dev.quiver.device." + backend), backend + " is missing from " + found);
        }
    }
}
