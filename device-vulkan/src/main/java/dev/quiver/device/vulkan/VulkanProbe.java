package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DriverStartLock;
import dev.quiver.spi.ProbeResult;
import org.lwjgl.vulkan.VK;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The probe of Quiver's Vulkan provider, run once per process on first request: load the Vulkan library,
 * create the instance (with validation if asked), and make a logical device for each physical device that
 * supports Vulkan 1.1 and has a queue that can transfer. The result is cached because the instance and
 * devices it makes live as long as the process. Never throws. Thread-safe.
 */
final class VulkanProbe {
    private static final System.Logger LOG = System.getLogger(VulkanProbe.class.getName());
    private static ProbeResult result;

    private VulkanProbe() {}

    static synchronized ProbeResult result() {
        if (result == null) {
            try {
                // LWJGL's loading must run alone, so it comes before the driver start, not inside it
                Optional<String> notLoaded = VulkanLoader.load();
                result = notLoaded.isPresent() ? ProbeResult.unavailable(notLoaded.get())
                        : DriverStartLock.holding(VulkanProbe::run);
            } catch (RuntimeException | LinkageError e) {
                result = ProbeResult.unavailable("probing Vulkan failed: " + e);
            }
        }
        return result;
    }

    /** @return the result if the probe ran already, without running it */
    static synchronized Optional<ProbeResult> ifRun() {
        return Optional.ofNullable(result);
    }

    /** @return the probe's result, with the Vulkan library loaded already */
    private static ProbeResult run() {
        int loaderVersion = VK.getInstanceVersionSupported();
        if (Integer.compareUnsigned(loaderVersion, VulkanInstance.API_VERSION) < 0) {
            return ProbeResult.unavailable("the Vulkan loader supports only version " + PhysicalDeviceInfo.version(loaderVersion)
                    + "; Quiver needs 1.1 or later");
        }
        boolean validation = ValidationLog.requested();
        VkInstance instance;
        try {
            instance = VulkanInstance.create(validation);
        } catch (BackendUnavailableException e) {
            return e.probeResult();
        }
        List<BackendDevice> devices = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        List<VkPhysicalDevice> physicalDevices = VulkanInstance.physicalDevices(instance);
        for (int i = 0; i < physicalDevices.size(); i++) {
            VkPhysicalDevice physical = physicalDevices.get(i);
            PhysicalDeviceInfo info = PhysicalDeviceInfo.read(physical);
            if (Integer.compareUnsigned(info.apiVersion(), VulkanInstance.API_VERSION) < 0) {
                reasons.add(info.name() + " supports only Vulkan " + PhysicalDeviceInfo.version(info.apiVersion()) + "; Quiver needs 1.1");
            } else if (info.queueFamily() < 0) {
                reasons.add(info.name() + " has no queue family that can transfer");
            } else {
                try {
                    devices.add(LogicalDevices.create(physical, info, i, validation));
                } catch (VulkanException e) {
                    reasons.add(info.name() + ": " + e.getMessage());
                }
            }
        }
        if (devices.isEmpty()) {
            if (reasons.isEmpty()) {
                reasons.add("no Vulkan physical device: the loader's drivers (ICDs) report none; for a CPU device install lavapipe"
                        + " (Debian/Ubuntu: mesa-vulkan-drivers)");
            }
            return new ProbeResult.Unavailable(reasons);
        }
        reasons.forEach(reason -> LOG.log(System.Logger.Level.INFO, "Vulkan device skipped: " + reason));
        return ProbeResult.available(devices);
    }
}
