package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The global Vulkan functions {@link VulkanSurvey} calls, which {@code vkGetInstanceProcAddr} returns for a
 * NULL instance: each with its declaration as {@code vulkan_core.h} has it (parameter types only) and the FFM
 * descriptor that calls it. A test compiles the declarations against the header.
 */
enum VkGlobalFunction implements CFunction.Table {
    vkEnumerateInstanceVersion,
    vkEnumerateInstanceExtensionProperties,
    vkCreateInstance;

    /** @return the declaration as {@code vulkan_core.h} has it and how FFM calls it */
    @Override
    public CFunction c() {
        return switch (this) {
            case vkEnumerateInstanceVersion -> CFunction.of("VkResult vkEnumerateInstanceVersion(uint32_t *)", JAVA_INT, ADDRESS);
            case vkEnumerateInstanceExtensionProperties -> CFunction.of(
                    "VkResult vkEnumerateInstanceExtensionProperties(const char *, uint32_t *, VkExtensionProperties *)",
                    JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
            case vkCreateInstance -> CFunction.of(
                    "VkResult vkCreateInstance(const VkInstanceCreateInfo *, const VkAllocationCallbacks *, VkInstance *)",
                    JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        };
    }
}
