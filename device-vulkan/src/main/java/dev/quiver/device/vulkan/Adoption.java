package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkQueue;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * Wraps an application's raw Vulkan handles in LWJGL objects and a {@link VulkanDevice} that does not own
 * them. LWJGL loads the instance and device functions of the given API version through the handles
 * themselves; Quiver needs no extension and no optional feature. Stateless; thread-safe.
 */
final class Adoption {
    private Adoption() {}

    static VulkanDevice adopt(long instance, long physicalDevice, long device, long queue, int queueFamilyIndex,
                              int apiVersion, Lock queueLock) {
        Objects.requireNonNull(queueLock, "queueLock");
        requireHandle(instance, "VkInstance");
        requireHandle(physicalDevice, "VkPhysicalDevice");
        requireHandle(device, "VkDevice");
        requireHandle(queue, "VkQueue");
        if (Integer.compareUnsigned(apiVersion, VulkanInstance.API_VERSION) < 0) {
            throw new IllegalArgumentException("apiVersion " + PhysicalDeviceInfo.version(apiVersion) + " is older than 1.1, which Quiver needs");
        }
        Optional<String> notLoaded = VulkanLoader.load();
        if (notLoaded.isPresent()) {
            throw new DeviceException(notLoaded.get());
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkInstance vkInstance = new VkInstance(instance, VkInstanceCreateInfo.calloc(stack).sType$Default()
                    .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default().apiVersion(apiVersion)));
            long index = indexOf(vkInstance, physicalDevice);
            VkPhysicalDevice physical = new VkPhysicalDevice(physicalDevice, vkInstance);
            int[][] families = PhysicalDeviceInfo.queueFamilies(physical);
            if (queueFamilyIndex < 0 || queueFamilyIndex >= families[0].length) {
                throw new IllegalArgumentException("queue family " + queueFamilyIndex + " does not exist: the device has "
                        + families[0].length);
            }
            if (!PhysicalDeviceInfo.canTransfer(families[0][queueFamilyIndex])) {
                throw new IllegalArgumentException("queue family " + queueFamilyIndex + " cannot run transfer commands (flags 0x"
                        + Integer.toHexString(families[0][queueFamilyIndex]) + ")");
            }
            PhysicalDeviceInfo info = PhysicalDeviceInfo.read(physical).withQueueFamily(queueFamilyIndex, families[0][queueFamilyIndex]);
            VkDevice vkDevice = new VkDevice(device, physical, VkDeviceCreateInfo.calloc(stack).sType$Default(), apiVersion);
            VkQueue vkQueue = new VkQueue(queue, vkDevice);
            return new VulkanDevice(DeviceContext.of(vkDevice, vkQueue, queueFamilyIndex, queueLock, info), instance, index, true, false, false);
        }
    }

    private static long indexOf(VkInstance instance, long physicalDevice) {
        List<VkPhysicalDevice> devices = VulkanInstance.physicalDevices(instance);
        for (int i = 0; i < devices.size(); i++) {
            if (devices.get(i).address() == physicalDevice) {
                return i;
            }
        }
        throw new IllegalArgumentException("VkPhysicalDevice 0x" + Long.toHexString(physicalDevice) + " is not one of VkInstance 0x"
                + Long.toHexString(instance.address()) + "'s physical devices");
    }

    private static void requireHandle(long handle, String what) {
        if (handle == 0) {
            throw new IllegalArgumentException(what + " is VK_NULL_HANDLE");
        }
    }
}
