package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;
import org.junit.jupiter.api.AfterAll;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conformance suite on a device adopted from an application's own instance, device and queue: Quiver's
 * buffers, streams and events then live on the application's {@code VkDevice}. Afterwards the application
 * destroys its device, and its validation layer reports nothing (no object of Quiver's was left on it).
 */
class AdoptedConformanceTest extends DeviceProviderConformance {
    private final ApplicationVulkan application = new ApplicationVulkan();
    private final VulkanDevice adopted = application.adopt();

    @Override
    protected DeviceProvider provider() {
        return VulkanProvider.serving(List.of(adopted));
    }

    @AfterAll
    void closeTheAdoptedDeviceThenTheApplication() {
        adopted.close();
        application.close();
        assertEquals(List.of(), application.messages, "the application's validation layer saw no misuse");
    }
}
