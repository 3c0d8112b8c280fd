package dev.quiver.device.vulkan;

import dev.quiver.Device;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Vulkan backend against the conformance suite, on Mesa's lavapipe with the validation layer on. The
 * suite fails (it is never skipped) when Vulkan is unusable here.
 */
class VulkanConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return new VulkanProvider();
    }

    @Test
    void runsOnLavapipeWithValidationOn() {
        assertTrue(devices().stream().anyMatch(d -> d.name().startsWith("llvmpipe")),
                "lavapipe (llvmpipe) is among the devices: " + devices());
        for (Device device : devices()) {
            assertEquals("on", device.properties().get("validation"), device + " runs with the Khronos validation layer");
        }
    }
}
