package dev.quiver.device.vulkan;

import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.vkEnumerateInstanceExtensionProperties;

/**
 * Every {@code VkResult} has its symbolic name: checked against the values a C compiler gives the
 * enumerators of the installed {@code vulkan_core.h}, and, for results newer than that header, against
 * LWJGL's constants (generated from a newer registry).
 */
class VkResultsTest {
    private static final Path HEADER = Path.of("/usr/include/vulkan/vulkan_core.h");

    @Test
    void everyResultOfTheHeaderHasItsName() throws IOException {
        List<String> names = headerResultNames();
        assertTrue(names.size() > 40, "VkResult enumerators found in " + HEADER + ": " + names);
        StringBuilder program = new StringBuilder("#include <stdio.h>\n#include <vulkan/vulkan_core.h>\nint main(void) {\n");
        for (String name : names) {
            program.append("    printf(\"%s %d\\n\", \"").append(name).append("\", (int) ").append(name).append(");\n");
        }
        program.append("    return 0;\n}\n");
        Map<Integer, Set<String>> headerNames = new HashMap<>();
        for (String line : CProgram.run(List.of(new CLibrary.Source("results.c", program.toString())), List.of()).split("\n")) {
            String[] parts = line.split(" ");
            headerNames.computeIfAbsent(Integer.parseInt(parts[1]), v -> new HashSet<>()).add(parts[0]);
        }
        for (Map.Entry<Integer, Set<String>> result : headerNames.entrySet()) {
            assertTrue(VkResults.all().containsKey(result.getKey()), "no name for " + result.getValue() + " = " + result.getKey());
            assertTrue(result.getValue().contains(VkResults.name(result.getKey())),
                    VkResults.name(result.getKey()) + " is not a header name of " + result.getKey() + ": " + result.getValue());
        }
    }

    @Test
    void resultsNewerThanTheHeaderMatchLwjgl() throws Exception {
        Map<String, String> lwjglClass = Map.of(
                "VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT", "EXTPresentTiming",
                "VK_ERROR_INVALID_VIDEO_STD_PARAMETERS_KHR", "KHRVideoEncodeQueue",
                "VK_INCOMPATIBLE_SHADER_BINARY_EXT", "EXTShaderObject",
                "VK_PIPELINE_BINARY_MISSING_KHR", "KHRPipelineBinary",
                "VK_ERROR_NOT_ENOUGH_SPACE_KHR", "KHRPipelineBinary");
        String header = Files.readString(HEADER);
        for (Map.Entry<Integer, String> result : VkResults.all().entrySet()) {
            if (header.contains(result.getValue() + " =")) {
                continue;
            }
            String owner = lwjglClass.get(result.getValue());
            assertTrue(owner != null, result.getValue() + " is in neither the header nor this test's LWJGL list");
            int value = Class.forName("org.lwjgl.vulkan." + owner).getField(result.getValue()).getInt(null);
            assertEquals(value, (int) result.getKey(), result.getValue());
        }
    }

    @Test
    void aFailedCallNamesTheCallAndTheResult() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VulkanException e = assertThrows(VulkanException.class, () -> VulkanException.check(
                    vkEnumerateInstanceExtensionProperties("VK_LAYER_QUIVER_absent", stack.mallocInt(1), null),
                    "vkEnumerateInstanceExtensionProperties"));
            assertEquals("vkEnumerateInstanceExtensionProperties", e.call());
            assertEquals("VK_ERROR_LAYER_NOT_PRESENT", e.resultName());
            assertEquals(-6, e.result());
            assertEquals("vkEnumerateInstanceExtensionProperties failed: VK_ERROR_LAYER_NOT_PRESENT (-6)", e.getMessage());
            assertTrue(e instanceof dev.quiver.spi.DeviceException);
        }
        assertEquals(5, VulkanException.check(5, "vkEnumerateInstanceLayerProperties"), "VK_INCOMPLETE is not an error");
        assertEquals("VkResult(-424242)", new VulkanException("vkQueueSubmit", -424242).resultName());
    }

    private static List<String> headerResultNames() throws IOException {
        String header = Files.readString(HEADER);
        Matcher block = Pattern.compile("typedef enum VkResult \\{(.*?)} VkResult;", Pattern.DOTALL).matcher(header);
        assertTrue(block.find(), "typedef enum VkResult in " + HEADER);
        return Pattern.compile("^\\s*(VK_[A-Z0-9_]+)\\s*=", Pattern.MULTILINE).matcher(block.group(1)).results()
                .map(m -> m.group(1)).filter(name -> !name.equals("VK_RESULT_MAX_ENUM")).toList();
    }
}
