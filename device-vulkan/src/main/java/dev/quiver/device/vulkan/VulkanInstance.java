package dev.quiver.device.vulkan;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkLayerProperties;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.lwjgl.vulkan.EXTDebugUtils.VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTDebugUtils.vkCreateDebugUtilsMessengerEXT;
import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.VK_ERROR_INCOMPATIBLE_DRIVER;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;
import static org.lwjgl.vulkan.VK10.vkCreateInstance;
import static org.lwjgl.vulkan.VK10.vkEnumerateInstanceExtensionProperties;
import static org.lwjgl.vulkan.VK10.vkEnumerateInstanceLayerProperties;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;

/**
 * Creates the {@code VkInstance} Quiver's provider owns for the life of the process: API version 1.1, the
 * portability enumeration extension where the loader has it (so MoltenVK devices are listed), and, when
 * {@code -Dquiver.vulkan.validation=true}, the {@code VK_LAYER_KHRONOS_validation} layer with a
 * {@link DebugMessenger} (also chained into the create-info, so instance creation itself is checked).
 */
final class VulkanInstance {
    static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";
    static final int API_VERSION = VK_API_VERSION_1_1;

    private VulkanInstance() {}

    /** Why the instance could not be made, as a sentence for the probe. */
    static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * @param validation whether to enable the validation layer and the messenger
     * @return the instance
     * @throws Unusable if the layer is missing or the loader finds no usable driver
     */
    static VkInstance create(boolean validation) throws Unusable {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            Set<String> layers = layers(stack);
            if (validation && !layers.contains(VALIDATION_LAYER)) {
                throw new Unusable("Vulkan validation was requested (-D" + ValidationLog.PROPERTY + "=true) but the layer "
                        + VALIDATION_LAYER + " is not installed (Debian/Ubuntu: vulkan-validationlayers); installed layers: "
                        + (layers.isEmpty() ? "none" : String.join(", ", layers)));
            }
            Set<String> extensions = extensions(stack);
            List<String> enabled = new ArrayList<>();
            int flags = 0;
            if (extensions.contains(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
                enabled.add(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
                flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
            }
            if (validation) {
                enabled.add(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
            }
            PointerBuffer extensionNames = stack.mallocPointer(enabled.size());
            enabled.forEach(name -> extensionNames.put(stack.UTF8(name)));
            extensionNames.flip();
            VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default()
                    .flags(flags)
                    .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default()
                            .pApplicationName(stack.UTF8("Quiver")).pEngineName(stack.UTF8("Quiver")).apiVersion(API_VERSION))
                    .ppEnabledExtensionNames(extensionNames);
            if (validation) {
                info.ppEnabledLayerNames(stack.pointers(stack.UTF8(VALIDATION_LAYER))).pNext(DebugMessenger.createInfo(stack, DebugMessenger.processCallback()));
            }
            PointerBuffer handle = stack.mallocPointer(1);
            int result = vkCreateInstance(info, null, handle);
            if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
                throw new Unusable("no Vulkan driver: vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER, so the loader found no"
                        + " installable client driver (ICD) for Vulkan 1.1; install one (Debian/Ubuntu: mesa-vulkan-drivers"
                        + " provides lavapipe, which runs on the CPU)");
            }
            if (result != VK_SUCCESS) {
                throw new Unusable(new VulkanException("vkCreateInstance", result).getMessage());
            }
            VkInstance instance = new VkInstance(handle.get(0), info);
            if (validation) {
                LongBuffer messenger = stack.mallocLong(1);
                VulkanException.check(vkCreateDebugUtilsMessengerEXT(instance, DebugMessenger.createInfo(stack, DebugMessenger.processCallback()), null, messenger),
                        "vkCreateDebugUtilsMessengerEXT");
            }
            return instance;
        }
    }

    /** @return the names of the instance layers the loader found */
    static Set<String> layers(MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        VulkanException.check(vkEnumerateInstanceLayerProperties(count, null), "vkEnumerateInstanceLayerProperties");
        VkLayerProperties.Buffer properties = VkLayerProperties.calloc(count.get(0), stack);
        VulkanException.check(vkEnumerateInstanceLayerProperties(count, properties), "vkEnumerateInstanceLayerProperties");
        Set<String> names = new HashSet<>();
        properties.forEach(p -> names.add(p.layerNameString()));
        return names;
    }

    private static Set<String> extensions(MemoryStack stack) {
        IntBuffer count = stack.mallocInt(1);
        VulkanException.check(vkEnumerateInstanceExtensionProperties((CharSequence) null, count, null), "vkEnumerateInstanceExtensionProperties");
        VkExtensionProperties.Buffer properties = VkExtensionProperties.calloc(count.get(0), stack);
        VulkanException.check(vkEnumerateInstanceExtensionProperties((CharSequence) null, count, properties), "vkEnumerateInstanceExtensionProperties");
        Set<String> names = new HashSet<>();
        properties.forEach(p -> names.add(p.extensionNameString()));
        return names;
    }
}
