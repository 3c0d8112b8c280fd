package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.CFunction;
import dev.quiver.device.ffm.ProcAddressLoader;
import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signature checks of the Vulkan functions bound through the shared binding layer, against the installed
 * {@code vulkan_core.h} ({@code libvulkan-dev}), generated from {@link VulkanCalls#GET_INSTANCE_PROC_ADDR},
 * {@link VkGlobalFunction} and {@link VkInstanceFunction} and judged by the C compiler: each function's declared
 * type, and the size and kind of every C type against its Java layout.
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
}
