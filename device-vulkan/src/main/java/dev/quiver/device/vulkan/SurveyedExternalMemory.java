package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.Bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Asks a physical device, through {@link VulkanSurvey}'s downcalls instead of LWJGL, what
 * {@link ExternalMemoryFd#supported} asks: whether it lists {@code VK_KHR_external_memory_fd} and can both
 * export and import buffers of {@link VulkanDevice#BUFFER_USAGE} as opaque file descriptors without dedicated
 * allocations ({@code vkGetPhysicalDeviceExternalBufferProperties}, core in Vulkan 1.1, which the survey's
 * instance and devices support). Stateless; thread-safe. The constants, sizes and offsets it spells out are
 * compared with {@code vulkan_core.h} by a test.
 */
final class SurveyedExternalMemory {
    /** {@code VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME}. */
    static final String EXTENSION = "VK_KHR_external_memory_fd";
    static final int STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO = 1000071002;
    static final int STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES = 1000071003;
    /** {@code VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT}. */
    static final int HANDLE_TYPE_OPAQUE_FD = 0x1;
    /** {@code VkPhysicalDeviceExternalBufferInfo}: sType, pNext, flags, usage, handleType. */
    static final long BUFFER_INFO_SIZE = 32;
    static final long BUFFER_INFO_USAGE_OFFSET = 20;
    static final long BUFFER_INFO_HANDLE_TYPE_OFFSET = 24;
    /** {@code VkExternalBufferProperties}: sType, pNext, then {@code VkExternalMemoryProperties}. */
    static final long BUFFER_PROPERTIES_SIZE = 32;
    /** Of {@code externalMemoryProperties.externalMemoryFeatures} in {@code VkExternalBufferProperties}. */
    static final long FEATURES_OFFSET = 16;

    private SurveyedExternalMemory() {}

    /**
     * @param vk       the functions of the survey's instance
     * @param physical one of its {@code VkPhysicalDevice}s
     * @param arena    where the structures are made
     * @return whether the device opened from {@code physical} will share its buffers as opaque file descriptors
     */
    static boolean sharesOpaqueFd(Bindings<VkInstanceFunction> vk, MemorySegment physical, Arena arena) {
        boolean listed = VulkanSurvey.extensionNames((count, properties) -> vk.result(VkInstanceFunction.vkEnumerateDeviceExtensionProperties,
                h -> (int) h.invokeExact(physical, MemorySegment.NULL, count, properties)), arena).contains(EXTENSION);
        if (!listed) {
            return false;
        }
        MemorySegment query = arena.allocate(BUFFER_INFO_SIZE, 8);
        query.set(JAVA_INT, 0, STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO);
        query.set(ADDRESS, 8, MemorySegment.NULL);
        query.set(JAVA_INT, BUFFER_INFO_USAGE_OFFSET, DeviceBuffers.USAGE);
        query.set(JAVA_INT, BUFFER_INFO_HANDLE_TYPE_OFFSET, HANDLE_TYPE_OPAQUE_FD);
        MemorySegment answer = arena.allocate(BUFFER_PROPERTIES_SIZE, 8);
        answer.set(JAVA_INT, 0, STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES);
        vk.run(VkInstanceFunction.vkGetPhysicalDeviceExternalBufferProperties, h -> {
            h.invokeExact(physical, query, answer);
        });
        return ExternalMemoryFd.exportsAndImports(answer.get(JAVA_INT, FEATURES_OFFSET));
    }
}
