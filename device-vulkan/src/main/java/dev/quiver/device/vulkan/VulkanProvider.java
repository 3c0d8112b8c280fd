package dev.quiver.device.vulkan;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.util.List;

/**
 * Serves {@code ARROW_DEVICE_VULKAN} (code 7) through LWJGL. Found by {@link java.util.ServiceLoader}: its
 * probe loads the Vulkan loader ({@code libvulkan.so.1} on Linux), creates one instance for the process and
 * a logical device per usable physical device, and reports precise reasons when it cannot (no loader, no
 * driver or device, validation requested but the layer missing). See {@link VulkanDevice} for what buffers,
 * streams and events are. Without validation the probe lists the devices through a few direct calls and
 * leaves LWJGL and the logical devices to the first use of a device ({@link VulkanListing}).
 *
 * <p>{@link #serving(List)} makes a provider for devices an application adopted ({@link VulkanDevice#adopt}),
 * to build a {@code Devices} in which {@code VULKAN:n} means the application's own {@code VkDevice}.
 *
 * <p>Construction does no native work. Thread-safe.
 */
public final class VulkanProvider implements DeviceProvider {
    private final List<VulkanDevice> adopted;

    /** The provider of the process's own Vulkan devices; does nothing native. */
    public VulkanProvider() {
        this.adopted = null;
    }

    private VulkanProvider(List<VulkanDevice> adopted) {
        this.adopted = List.copyOf(adopted);
    }

    /**
     * {@return a provider whose probe reports exactly these devices}
     * @param devices devices an application adopted; they stay owned by the application
     */
    public static VulkanProvider serving(List<VulkanDevice> devices) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("a provider of adopted devices needs at least one device");
        }
        return new VulkanProvider(devices);
    }

    @Override
    public String name() {
        return "vulkan";
    }

    /** @return what to install or set where this backend is unavailable */
    @Override
    public String setupHint() {
        return "install the Vulkan loader (libvulkan1) and a driver, such as mesa-vulkan-drivers";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.VULKAN};
    }

    /** @return the devices, or why Vulkan cannot be used; never throws */
    @Override
    public ProbeResult probe() {
        if (adopted != null) {
            return ProbeResult.available(List.<BackendDevice>copyOf(adopted));
        }
        try {
            return VulkanListing.result();
        } catch (LinkageError e) {
            return ProbeResult.unavailable("LWJGL is missing from the class or module path (org.lwjgl:lwjgl and org.lwjgl:lwjgl-vulkan): " + e);
        }
    }
}
