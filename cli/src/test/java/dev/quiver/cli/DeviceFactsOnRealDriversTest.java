package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceFeature;
import dev.quiver.DeviceKind;
import dev.quiver.DeviceRanking;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.VendorLibrary;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What real drivers say about their devices, through the public API: PoCL's OpenCL device and lavapipe's Vulkan
 * device are CPU implementations, with their compute units; each lends the vendor library its backend loaded,
 * whose symbols a library binds to instead of loading its own copy.
 */
class DeviceFactsOnRealDriversTest {
    private static final Devices DEVICES = Devices.system();

    @Test
    void poclIsACpuImplementationAndLendsTheOpenClLoader() {
        Device opencl = DEVICES.get(DeviceType.OPENCL, 0);
        assertEquals(DeviceKind.CPU, opencl.kind(), "PoCL's pthread device");
        assertTrue(opencl.computeUnits() >= 1, "compute units " + opencl.computeUnits());
        assertTrue(opencl.supports(DeviceFeature.EVENTS) && opencl.supports(DeviceFeature.VENDOR_LIBRARY), opencl.features().toString());
        VendorLibrary library = opencl.vendorLibrary().orElseThrow();
        assertEquals("libOpenCL.so.1", library.name());
        assertTrue(library.path().isPresent() && Files.isRegularFile(library.path().get()), library.toString());
        assertTrue(library.path().get().getFileName().toString().startsWith("libOpenCL.so"), library.toString());
        assertTrue(library.lookup().find("clGetPlatformIDs").isPresent());
        assertTrue(DeviceRanking.defaults().explain(opencl).contains("; a CPU implementation of opencl, so after every device that is not one"),
                DeviceRanking.defaults().explain(opencl));
    }

    @Test
    void lavapipeIsACpuImplementationAndLendsTheVulkanLoader() {
        Device vulkan = DEVICES.get(DeviceType.VULKAN, 0);
        assertEquals(DeviceKind.CPU, vulkan.kind(), "lavapipe");
        VendorLibrary library = vulkan.vendorLibrary().orElseThrow();
        assertTrue(library.name().contains("vulkan"), library.toString());
        assertTrue(library.lookup().find("vkGetInstanceProcAddr").isPresent());
    }

    @Test
    void theCpuHasNoVendorLibraryAndNoEvents() {
        Device cpu = DEVICES.cpu();
        assertEquals(DeviceKind.CPU, cpu.kind());
        assertTrue(cpu.vendorLibrary().isEmpty());
        assertEquals(java.util.Set.of(DeviceFeature.HOST_ACCESS), cpu.features());
    }
}
