package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.CFunction;
import dev.quiver.device.ffm.ProcAddressLoader;
import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signature checks of the Vulkan functions bound through the shared binding layer, against the installed
 * {@code vulkan_core.h} ({@code libvulkan-dev}), generated from {@link VulkanCalls#GET_INSTANCE_PROC_ADDR},
 * {@link VkGlobalFunction} and {@link VkInstanceFunction} and judged by the C compiler: each function's declared
 * type, and the size and kind of every C type against its Java layout; and the constants, sizes and offsets
 * {@link VulkanSurvey} and {@link SurveyedExternalMemory} spell out.
 */
class VulkanHeaderSignatureChecksTest {

    @Test
    void everyBoundFunctionMatchesTheVulkanHeader() {
        List<CFunction> functions = new ArrayList<>();
        functions.add(VulkanCalls.GET_INSTANCE_PROC_ADDR);
        for (VkGlobalFunction function : VkGlobalFunction.values()) {
            functions.add(function.c());
            assertEquals(function.name(), function.c().symbol(), "each entry is named after its symbol");
        }
        for (VkInstanceFunction function : VkInstanceFunction.values()) {
            functions.add(function.c());
            assertEquals(function.name(), function.c().symbol(), "each entry is named after its symbol");
        }
        CHeaderCheck check = new CHeaderCheck(List.of("#include <vulkan/vulkan_core.h>"));
        functions.forEach(function -> check.function(function.prototype(), function.descriptor()));
        check.functionPointerType("PFN_vkGetInstanceProcAddr", VulkanCalls.GET_INSTANCE_PROC_ADDR.prototype(), ProcAddressLoader.DESCRIPTOR);
        check.run("vulkan_header_checks.c", List.of());
        assertEquals(ProcAddressLoader.DESCRIPTOR, VulkanCalls.GET_INSTANCE_PROC_ADDR.descriptor(), "bound as a loader function");
        assertTrue(check.assertionCount() > 3 * functions.size(), "every function and each of its types is compared: " + check.assertionCount());
    }

    @Test
    void theSurveysConstantsSizesAndOffsetsMatchTheVulkanHeader() {
        String properties2 = "VkPhysicalDeviceProperties2";
        CHeaderCheck check = new CHeaderCheck(List.of("#include <stddef.h>", "#include <vulkan/vulkan_core.h>"))
                .constant("VK_API_VERSION_1_1", VulkanSurvey.API_VERSION_1_1)
                .constant("VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR", VulkanSurvey.ENUMERATE_PORTABILITY_BIT)
                .constant("VK_STRUCTURE_TYPE_APPLICATION_INFO", VulkanSurvey.STRUCTURE_TYPE_APPLICATION_INFO)
                .constant("VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO", VulkanSurvey.STRUCTURE_TYPE_INSTANCE_CREATE_INFO)
                .constant("VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2", VulkanSurvey.STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2)
                .constant("VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES",
                        VulkanSurvey.STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES)
                .constant("VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES", VulkanSurvey.STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES)
                .constant("sizeof(VkPhysicalDeviceIDProperties)", VulkanSurvey.ID_PROPERTIES_SIZE)
                .constant("offsetof(VkPhysicalDeviceIDProperties, deviceUUID)", VulkanSurvey.DEVICE_UUID_OFFSET)
                .constant("sizeof(VkExtensionProperties)", VulkanSurvey.EXTENSION_PROPERTIES_SIZE)
                .constant("sizeof(" + properties2 + ")", VulkanSurvey.PROPERTIES_2_SIZE)
                .constant("offsetof(" + properties2 + ", properties)", VulkanSurvey.PROPERTIES_OFFSET)
                .constant("offsetof(" + properties2 + ", properties.limits.maxMemoryAllocationCount)", VulkanSurvey.MAX_ALLOCATION_COUNT_OFFSET)
                .constant("offsetof(" + properties2 + ", properties.limits.nonCoherentAtomSize)", VulkanSurvey.NON_COHERENT_ATOM_SIZE_OFFSET)
                .constant("sizeof(VkPhysicalDeviceMemoryProperties)", VulkanSurvey.MEMORY_PROPERTIES_SIZE)
                .constant("sizeof(VkQueueFamilyProperties)", VulkanSurvey.QUEUE_FAMILY_SIZE)
                .expansion("VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME");
        Map<String, String> expansions = check.run("vulkan_survey_header_checks.c", List.of());
        assertEquals("\"" + VulkanSurvey.PORTABILITY_ENUMERATION + "\"", expansions.get("VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME"));
    }

    @Test
    void theSurveysExternalMemoryConstantsSizesAndOffsetsMatchTheVulkanHeader() {
        String info = "VkPhysicalDeviceExternalBufferInfo";
        String properties = "VkExternalBufferProperties";
        CHeaderCheck check = new CHeaderCheck(List.of("#include <stddef.h>", "#include <vulkan/vulkan_core.h>"))
                .constant("VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO",
                        SurveyedExternalMemory.STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO)
                .constant("VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES", SurveyedExternalMemory.STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES)
                .constant("VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT", SurveyedExternalMemory.HANDLE_TYPE_OPAQUE_FD)
                .constant("VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT",
                        DeviceBuffers.USAGE)
                .constant("sizeof(" + info + ")", SurveyedExternalMemory.BUFFER_INFO_SIZE)
                .constant("offsetof(" + info + ", usage)", SurveyedExternalMemory.BUFFER_INFO_USAGE_OFFSET)
                .constant("offsetof(" + info + ", handleType)", SurveyedExternalMemory.BUFFER_INFO_HANDLE_TYPE_OFFSET)
                .constant("sizeof(" + properties + ")", SurveyedExternalMemory.BUFFER_PROPERTIES_SIZE)
                .constant("offsetof(" + properties + ", externalMemoryProperties.externalMemoryFeatures)",
                        SurveyedExternalMemory.FEATURES_OFFSET)
                .expansion("VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME");
        Map<String, String> expansions = check.run("vulkan_external_memory_header_checks.c", List.of());
        assertEquals("\"" + SurveyedExternalMemory.EXTENSION + "\"", expansions.get("VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME"));
    }
}
