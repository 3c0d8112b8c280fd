package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkEventCreateInfo;

import java.nio.LongBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.vkCreateEvent;
import static org.lwjgl.vulkan.VK10.vkDestroyEvent;

/**
 * The debug-utils messenger really reports what the Khronos validation layer finds: a deliberate misuse on an
 * instance of the test's own (so Quiver's instance stays clean) arrives as a message naming the rule broken.
 */
class ValidationMessengerTest {

    @Test
    void aMisuseArrivesAsAMessageNamingTheRule() {
        ApplicationVulkan application = new ApplicationVulkan();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer event = stack.mallocLong(1);
            int undefinedFlag = 0x40000000;
            assertEquals(0, vkCreateEvent(application.device, VkEventCreateInfo.calloc(stack).sType$Default().flags(undefinedFlag), null, event));
            vkDestroyEvent(application.device, event.get(0), null);
        } finally {
            application.close();
        }
        assertTrue(application.messages.stream().anyMatch(m -> m.startsWith("ERROR [VUID-VkEventCreateInfo-flags-parameter] ")),
                "the layer named the broken rule: " + application.messages);
        assertEquals(0, ValidationLog.count(), "Quiver's own instance saw nothing of it");
    }
}
