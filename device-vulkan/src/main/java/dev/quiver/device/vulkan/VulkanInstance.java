package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.BackendUnavailableException;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCreateInfoEXT;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkLayerProperties;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkValidationFeaturesEXT;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.lwjgl.vulkan.EXTDebugUtils.VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTDebugUtils.vkCreateDebugUtilsMessengerEXT;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
import static org.lwjgl.vulkan.EXTValidationFeatures.VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
import static org.lwjgl.vulkan.KHRPortabilityEnumeration.VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.VK_ERROR_INCOMPATIBLE_DRIVER;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;
import static org.lwjgl.vulkan.VK10.vkCreateInstance;
import static org.lwjgl.vulkan.VK10.vkEnumerateInstanceExtensionProperties;
import static org.lwjgl.vulkan.VK10.vkEnumerateInstanceLayerProperties;
import static org.lwjgl.vulkan.VK10.vkEnumeratePhysicalDevices;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;

/**
 * Creates the {@code VkInstance} Quiver's provider owns for the life of the process: API version 1.1, the
 * portability enumeration extension where the loader has it (so MoltenVK devices are listed), and, when
 * {@code -Dquiver.vulkan.validation=true}, the {@code VK_LAYER_KHRONOS_validation} layer with a
 * {@link DebugMessenger} and synchronisation validation ({@link #enableValidation}).
 */
final class VulkanInstance {
    static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";
    static final int API_VERSION = VK_API_VERSION_1_1;

    private VulkanInstance() {}

    /**
     * @param validation whether to enable the validation layer and the messenger
     * @return the instance
     * @throws BackendUnavailableException if the layer is missing or the loader finds no usable driver
     */
    static VkInstance create(boolean validation) throws BackendUnavailableException {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            Set<String> layers = layers(stack);
            if (validation && !layers.contains(VALIDATION_LAYER)) {
                throw new BackendUnavailableException("Vulkan validation was requested (-D" + ValidationLog.PROPERTY + "=true) but the layer "
                        + VALIDATION_LAYER + " is not installed (Debian/Ubuntu: vulkan-validationlayers); installed layers: "
                        + (layers.isEmpty() ? "none" : String.join(", ", layers)));
            }
            Set<String> extensions = extensions(stack, null);
            List<String> enabled = new ArrayList<>();
            int flags = 0;
            if (extensions.contains(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
                enabled.add(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
                flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
            }
            VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default()
                    .flags(flags)
                    .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default()
                            .pApplicationName(stack.UTF8("Quiver")).pEngineName(stack.UTF8("Quiver")).apiVersion(API_VERSION));
            if (validation) {
                enableValidation(stack, info, enabled, DebugMessenger.processCallback());
            }
            info.ppEnabledExtensionNames(names(stack, enabled));
            PointerBuffer handle = stack.mallocPointer(1);
            int result = vkCreateInstance(info, null, handle);
            if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
                throw new BackendUnavailableException("no Vulkan driver: vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER, so the loader found no"
                        + " installable client driver (ICD) for Vulkan 1.1; install one (Debian/Ubuntu: mesa-vulkan-drivers"
                        + " provides lavapipe, which runs on the CPU)");
            }
            if (result != VK_SUCCESS) {
                throw new BackendUnavailableException(new VulkanException("vkCreateInstance", result).getMessage());
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

    /**
     * Turns on {@value #VALIDATION_LAYER} for an instance about to be created: the layer, the debug-utils
     * extension, and in the create-info's {@code pNext} chain a messenger (so instance creation is checked
     * too) and, where the layer offers {@code VK_EXT_validation_features}, synchronisation validation, which
     * also reports missing barriers and hazards between submissions.
     *
     * @param stack      where the structures live until the instance is created
     * @param info       the create-info; its layers and {@code pNext} are set here
     * @param extensions the extensions to enable, to which this adds
     * @param callback   the messenger's callback
     */
    static void enableValidation(MemoryStack stack, VkInstanceCreateInfo info, List<String> extensions,
                                 VkDebugUtilsMessengerCallbackEXT callback) {
        extensions.add(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        VkDebugUtilsMessengerCreateInfoEXT messenger = DebugMessenger.createInfo(stack, callback);
        info.ppEnabledLayerNames(stack.pointers(stack.UTF8(VALIDATION_LAYER))).pNext(messenger);
        if (extensions(stack, VALIDATION_LAYER).contains(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
            extensions.add(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
            messenger.pNext(VkValidationFeaturesEXT.calloc(stack).sType$Default()
                    .pEnabledValidationFeatures(stack.ints(VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT)).address());
        }
    }

    /** @return the names as an array of C strings on {@code stack} */
    static PointerBuffer names(MemoryStack stack, List<String> names) {
        PointerBuffer result = stack.mallocPointer(names.size());
        names.forEach(name -> result.put(stack.UTF8(name)));
        return result.flip();
    }

    /**
     * @param instance an instance
     * @return its physical devices ({@code vkEnumeratePhysicalDevices}), in the order the loader lists them,
     *         which is the order of their Arrow {@code device_id}s
     */
    static List<VkPhysicalDevice> physicalDevices(VkInstance instance) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            VulkanException.check(vkEnumeratePhysicalDevices(instance, count, null), "vkEnumeratePhysicalDevices");
            PointerBuffer handles = stack.mallocPointer(count.get(0));
            VulkanException.check(vkEnumeratePhysicalDevices(instance, count, handles), "vkEnumeratePhysicalDevices");
            List<VkPhysicalDevice> devices = new ArrayList<>();
            for (int i = 0; i < count.get(0); i++) {
                devices.add(new VkPhysicalDevice(handles.get(i), instance));
            }
            return devices;
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

    /** @return the instance extensions of the loader and drivers ({@code layer} null) or of one layer */
    private static Set<String> extensions(MemoryStack stack, String layer) {
        IntBuffer count = stack.mallocInt(1);
        VulkanException.check(vkEnumerateInstanceExtensionProperties(layer, count, null), "vkEnumerateInstanceExtensionProperties");
        VkExtensionProperties.Buffer properties = VkExtensionProperties.calloc(count.get(0), stack);
        VulkanException.check(vkEnumerateInstanceExtensionProperties(layer, count, properties), "vkEnumerateInstanceExtensionProperties");
        Set<String> names = new HashSet<>();
        properties.forEach(p -> names.add(p.extensionNameString()));
        return names;
    }
}
