package dev.quiver.device.vulkan;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkDeviceQueueCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkQueue;

import java.util.concurrent.locks.ReentrantLock;

import static org.lwjgl.vulkan.VK10.vkCreateDevice;
import static org.lwjgl.vulkan.VK10.vkGetDeviceQueue;

/**
 * Creates the logical devices Quiver's provider owns: one queue of the chosen transfer-capable family and no
 * optional features (buffers, copies, fences, binary semaphores and events are all core Vulkan 1.0). The one
 * extension is {@code VK_KHR_external_memory_fd}, enabled only where the device offers it for Quiver's
 * buffers ({@link ExternalMemoryFd#supported}): then buffers are allocated exportable. They live as long as
 * the process.
 */
final class LogicalDevices {
    private LogicalDevices() {}

    /**
     * @param physical   the physical device
     * @param info       what was read from it; its queue family must be valid
     * @param id         its index among the instance's physical devices
     * @param validation whether the instance has the validation layer
     * @return the device, owned by the provider
     */
    static VulkanDevice create(VkPhysicalDevice physical, PhysicalDeviceInfo info, long id, boolean validation) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkDeviceQueueCreateInfo.Buffer queues = VkDeviceQueueCreateInfo.calloc(1, stack);
            queues.get(0).sType$Default().queueFamilyIndex(info.queueFamily()).pQueuePriorities(stack.floats(1.0f));
            VkDeviceCreateInfo create = VkDeviceCreateInfo.calloc(stack).sType$Default().pQueueCreateInfos(queues);
            boolean exportable = ExternalMemoryFd.supported(physical, DeviceBuffers.USAGE);
            if (exportable) {
                create.ppEnabledExtensionNames(stack.pointers(stack.UTF8(ExternalMemoryFd.EXTENSION)));
            }
            PointerBuffer handle = stack.mallocPointer(1);
            VulkanException.check(vkCreateDevice(physical, create, null, handle), "vkCreateDevice");
            VkDevice device = new VkDevice(handle.get(0), physical, create, VulkanInstance.API_VERSION);
            vkGetDeviceQueue(device, info.queueFamily(), 0, handle);
            VkQueue queue = new VkQueue(handle.get(0), device);
            DeviceContext context = DeviceContext.of(device, queue, info.queueFamily(), new ReentrantLock(), info);
            return new VulkanDevice(context, physical.getInstance().address(), id, false, validation, exportable);
        }
    }
}
