package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackDataEXT;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCreateInfoEXT;

import java.util.function.Consumer;

import static org.lwjgl.vulkan.EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
import static org.lwjgl.vulkan.EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
import static org.lwjgl.vulkan.EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
import static org.lwjgl.vulkan.EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
import static org.lwjgl.vulkan.EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
import static org.lwjgl.vulkan.VK10.VK_FALSE;

/**
 * {@code VK_EXT_debug_utils} messengers. The one on Quiver's own instance records into {@link ValidationLog}.
 * A messenger subscribes to warnings and errors of every type (general, validation, performance): the
 * loader's and layers' informational chatter is not a validation message.
 *
 * <p>The callback is an upcall from whichever thread made the Vulkan call; it never throws (a failure to
 * read a message is itself recorded) and always returns {@code VK_FALSE}, as the extension requires.
 */
final class DebugMessenger {
    private static VkDebugUtilsMessengerCallbackEXT processCallback;

    private DebugMessenger() {}

    /** @return the callback of Quiver's own instance, recording into {@link ValidationLog}; lives as long as the process */
    static synchronized VkDebugUtilsMessengerCallbackEXT processCallback() {
        if (processCallback == null) {
            processCallback = callback(ValidationLog::record);
        }
        return processCallback;
    }

    /**
     * @param sink receives each message as one line: severity, message id, text
     * @return a new callback, owned by the caller, who frees it after destroying every messenger using it
     */
    static VkDebugUtilsMessengerCallbackEXT callback(Consumer<String> sink) {
        return VkDebugUtilsMessengerCallbackEXT.create((severity, types, callbackData, userData) -> {
            try {
                VkDebugUtilsMessengerCallbackDataEXT data = VkDebugUtilsMessengerCallbackDataEXT.create(callbackData);
                String id = data.pMessageIdNameString();
                sink.accept(severityName(severity) + " [" + (id == null ? "no id" : id) + "] " + data.pMessageString());
            } catch (Throwable t) {
                try {
                    sink.accept("a debug-utils message could not be read: " + t);
                } catch (Throwable ignored) {
                    // nothing more can be done inside an upcall, which must not throw
                }
            }
            return VK_FALSE;
        });
    }

    /** @return a create-info for a messenger calling {@code callback}, allocated on {@code stack} */
    static VkDebugUtilsMessengerCreateInfoEXT createInfo(MemoryStack stack, VkDebugUtilsMessengerCallbackEXT callback) {
        return VkDebugUtilsMessengerCreateInfoEXT.calloc(stack)
                .sType$Default()
                .messageSeverity(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                .messageType(VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                        | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)
                .pfnUserCallback(callback);
    }

    private static String severityName(int severity) {
        return (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "ERROR" : "WARNING";
    }
}
