package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The instance-level Vulkan functions {@link VulkanSurvey} and {@link SurveyedExternalMemory} call, which {@code vkGetInstanceProcAddr} returns
 * for the instance it made: each with its declaration as {@code vulkan_core.h} has it (parameter types only)
 * and the FFM descriptor that calls it. A test compiles the declarations against the header.
 */
enum VkInstanceFunction implements CFunction.Table {
    vkEnumeratePhysicalDevices,
    vkGetPhysicalDeviceProperties2,
    vkGetPhysicalDeviceMemoryProperties,
    vkGetPhysicalDeviceQueueFamilyProperties,
    vkEnumerateDeviceExtensionProperties,
    vkGetPhysicalDeviceExternalBufferProperties;

    /** @return the declaration as {@code vulkan_core.h} has it and how FFM calls it */
    @Override
    public CFunction c() {
        return switch (this) {
            case vkEnumeratePhysicalDevices -> CFunction.of(
                    "VkResult vkEnumeratePhysicalDevices(VkInstance, uint32_t *, VkPhysicalDevice *)", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
            case vkGetPhysicalDeviceProperties2 -> CFunction.ofVoid(
                    "void vkGetPhysicalDeviceProperties2(VkPhysicalDevice, VkPhysicalDeviceProperties2 *)", ADDRESS, ADDRESS);
            case vkGetPhysicalDeviceMemoryProperties -> CFunction.ofVoid(
                    "void vkGetPhysicalDeviceMemoryProperties(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *)", ADDRESS, ADDRESS);
            case vkGetPhysicalDeviceQueueFamilyProperties -> CFunction.ofVoid(
                    "void vkGetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice, uint32_t *, VkQueueFamilyProperties *)",
                    ADDRESS, ADDRESS, ADDRESS);
            case vkEnumerateDeviceExtensionProperties -> CFunction.of(
                    "VkResult vkEnumerateDeviceExtensionProperties(VkPhysicalDevice, const char *, uint32_t *, VkExtensionProperties *)",
                    JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
            case vkGetPhysicalDeviceExternalBufferProperties -> CFunction.ofVoid(
                    "void vkGetPhysicalDeviceExternalBufferProperties(VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo *, "
                            + "VkExternalBufferProperties *)", ADDRESS, ADDRESS, ADDRESS);
        };
    }
}
