package dev.quiver.device.vulkan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The symbolic name of every {@code VkResult}. Where the registry has aliases for one value, the name is the
 * one in the Vulkan 1.3 headers (for example {@code VK_ERROR_VALIDATION_FAILED_EXT}). Immutable; thread-safe.
 */
final class VkResults {
    private static final Map<Integer, String> NAMES = names();

    private VkResults() {}

    /**
     * @param result a {@code VkResult}
     * @return its symbolic name, or {@code VkResult(n)} for a value this build does not know
     */
    static String name(int result) {
        String name = NAMES.get(result);
        return name != null ? name : "VkResult(" + result + ")";
    }

    /** @return every known value with its name, in registry order */
    static Map<Integer, String> all() {
        return NAMES;
    }

    private static Map<Integer, String> names() {
        Map<Integer, String> names = new LinkedHashMap<>();
        names.put(0, "VK_SUCCESS");
        names.put(1, "VK_NOT_READY");
        names.put(2, "VK_TIMEOUT");
        names.put(3, "VK_EVENT_SET");
        names.put(4, "VK_EVENT_RESET");
        names.put(5, "VK_INCOMPLETE");
        names.put(-1, "VK_ERROR_OUT_OF_HOST_MEMORY");
        names.put(-2, "VK_ERROR_OUT_OF_DEVICE_MEMORY");
        names.put(-3, "VK_ERROR_INITIALIZATION_FAILED");
        names.put(-4, "VK_ERROR_DEVICE_LOST");
        names.put(-5, "VK_ERROR_MEMORY_MAP_FAILED");
        names.put(-6, "VK_ERROR_LAYER_NOT_PRESENT");
        names.put(-7, "VK_ERROR_EXTENSION_NOT_PRESENT");
        names.put(-8, "VK_ERROR_FEATURE_NOT_PRESENT");
        names.put(-9, "VK_ERROR_INCOMPATIBLE_DRIVER");
        names.put(-10, "VK_ERROR_TOO_MANY_OBJECTS");
        names.put(-11, "VK_ERROR_FORMAT_NOT_SUPPORTED");
        names.put(-12, "VK_ERROR_FRAGMENTED_POOL");
        names.put(-13, "VK_ERROR_UNKNOWN");
        names.put(-1000069000, "VK_ERROR_OUT_OF_POOL_MEMORY");
        names.put(-1000072003, "VK_ERROR_INVALID_EXTERNAL_HANDLE");
        names.put(-1000161000, "VK_ERROR_FRAGMENTATION");
        names.put(-1000257000, "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS");
        names.put(1000297000, "VK_PIPELINE_COMPILE_REQUIRED");
        names.put(-1000000000, "VK_ERROR_SURFACE_LOST_KHR");
        names.put(-1000000001, "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR");
        names.put(1000001003, "VK_SUBOPTIMAL_KHR");
        names.put(-1000001004, "VK_ERROR_OUT_OF_DATE_KHR");
        names.put(-1000003001, "VK_ERROR_INCOMPATIBLE_DISPLAY_KHR");
        names.put(-1000011001, "VK_ERROR_VALIDATION_FAILED_EXT");
        names.put(-1000012000, "VK_ERROR_INVALID_SHADER_NV");
        names.put(-1000023000, "VK_ERROR_IMAGE_USAGE_NOT_SUPPORTED_KHR");
        names.put(-1000023001, "VK_ERROR_VIDEO_PICTURE_LAYOUT_NOT_SUPPORTED_KHR");
        names.put(-1000023002, "VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR");
        names.put(-1000023003, "VK_ERROR_VIDEO_PROFILE_FORMAT_NOT_SUPPORTED_KHR");
        names.put(-1000023004, "VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR");
        names.put(-1000023005, "VK_ERROR_VIDEO_STD_VERSION_NOT_SUPPORTED_KHR");
        names.put(-1000158000, "VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT");
        names.put(-1000174001, "VK_ERROR_NOT_PERMITTED_KHR");
        names.put(-1000208000, "VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT");
        names.put(-1000255000, "VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT");
        names.put(1000268000, "VK_THREAD_IDLE_KHR");
        names.put(1000268001, "VK_THREAD_DONE_KHR");
        names.put(1000268002, "VK_OPERATION_DEFERRED_KHR");
        names.put(1000268003, "VK_OPERATION_NOT_DEFERRED_KHR");
        names.put(-1000299000, "VK_ERROR_INVALID_VIDEO_STD_PARAMETERS_KHR");
        names.put(-1000338000, "VK_ERROR_COMPRESSION_EXHAUSTED_EXT");
        names.put(1000482000, "VK_INCOMPATIBLE_SHADER_BINARY_EXT");
        names.put(1000483000, "VK_PIPELINE_BINARY_MISSING_KHR");
        names.put(-1000483000, "VK_ERROR_NOT_ENOUGH_SPACE_KHR");
        return Collections.unmodifiableMap(names);
    }
}
