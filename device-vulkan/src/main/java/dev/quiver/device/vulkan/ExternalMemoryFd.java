package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkExternalBufferProperties;
import org.lwjgl.vulkan.VkMemoryGetFdInfoKHR;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceExternalBufferInfo;

import java.nio.IntBuffer;

import static org.lwjgl.vulkan.KHRExternalMemoryFd.VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
import static org.lwjgl.vulkan.KHRExternalMemoryFd.vkGetMemoryFdKHR;
import static org.lwjgl.vulkan.VK10.vkEnumerateDeviceExtensionProperties;
import static org.lwjgl.vulkan.VK11.VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT;
import static org.lwjgl.vulkan.VK11.VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT;
import static org.lwjgl.vulkan.VK11.VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
import static org.lwjgl.vulkan.VK11.VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceExternalBufferProperties;

/**
 * Device memory shared with other processes as an opaque POSIX file descriptor
 * ({@code VK_KHR_external_memory_fd}, {@code VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT}): whether a
 * physical device offers it for Quiver's buffers, and the export call. The import is
 * {@link BufferMemory#importFd}. {@link SurveyedExternalMemory} asks the same without LWJGL. Stateless; thread-safe.
 */
final class ExternalMemoryFd {
    /** The device extension. */
    static final String EXTENSION = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
    /** The one handle type Quiver exports and imports. */
    static final int HANDLE_TYPE = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;

    private ExternalMemoryFd() {}

    /**
     * @param physical a physical device of an instance of Vulkan 1.1 or later
     * @param usage    the {@code VkBufferUsageFlags} of the buffers to share
     * @return whether the device lists the extension and can both export and import buffers of that usage
     *         as opaque descriptors without dedicated allocations
     */
    static boolean supported(VkPhysicalDevice physical, int usage) {
        if (!listsExtension(physical)) {
            return false;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPhysicalDeviceExternalBufferInfo query = VkPhysicalDeviceExternalBufferInfo.calloc(stack).sType$Default()
                    .usage(usage).handleType(HANDLE_TYPE);
            VkExternalBufferProperties answer = VkExternalBufferProperties.calloc(stack).sType$Default();
            vkGetPhysicalDeviceExternalBufferProperties(physical, query, answer);
            return exportsAndImports(answer.externalMemoryProperties().externalMemoryFeatures());
        }
    }

    /**
     * @param features the {@code VkExternalMemoryFeatureFlags} a device answered for Quiver's buffers
     * @return whether they allow both export and import without dedicated allocations
     */
    static boolean exportsAndImports(int features) {
        int needed = VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
        return (features & needed) == needed && (features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) == 0;
    }

    private static boolean listsExtension(VkPhysicalDevice physical) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            VulkanException.check(vkEnumerateDeviceExtensionProperties(physical, (String) null, count, null),
                    "vkEnumerateDeviceExtensionProperties");
            VkExtensionProperties.Buffer extensions = VkExtensionProperties.malloc(count.get(0), stack);
            VulkanException.check(vkEnumerateDeviceExtensionProperties(physical, (String) null, count, extensions),
                    "vkEnumerateDeviceExtensionProperties");
            for (VkExtensionProperties extension : extensions) {
                if (EXTENSION.equals(extension.extensionNameString())) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Exports memory allocated exportable as an opaque descriptor ({@code vkGetMemoryFdKHR}).
     *
     * @param device the logical device, with the extension enabled
     * @param memory the {@code VkDeviceMemory}
     * @return a new descriptor, owned by the caller
     */
    static int export(VkDevice device, long memory) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer fd = stack.mallocInt(1);
            VkMemoryGetFdInfoKHR info = VkMemoryGetFdInfoKHR.calloc(stack).sType$Default().memory(memory).handleType(HANDLE_TYPE);
            VulkanException.check(vkGetMemoryFdKHR(device, info, fd), "vkGetMemoryFdKHR");
            return fd.get(0);
        }
    }
}
