package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The survey reads each physical device through its own downcalls exactly as the LWJGL probe does, and a
 * device listed from it describes itself as the opened device does and hands every call on to that device.
 */
class SurveyedDevicesTest {

    @Test
    void theSurveyReadsWhatTheProbeReads() {
        VulkanDevice opened = Lavapipe.device();
        List<PhysicalDeviceInfo> surveyed = VulkanSurvey.devices().orElseThrow(() -> new AssertionError("the survey found no device"));
        assertEquals(opened.context().info(), surveyed.get((int) opened.deviceId()));
    }

    @Test
    void aListedDeviceDescribesItselfAndOpensTheProbedOne() {
        VulkanDevice opened = Lavapipe.device();
        DeferredVulkanDevice listed = new DeferredVulkanDevice(VulkanSurvey.devices().orElseThrow().get((int) opened.deviceId()), opened.deviceId());
        assertEquals(opened.toString(), listed.toString());
        assertEquals(opened.name(), listed.name());
        assertEquals(opened.totalMemory(), listed.totalMemory());
        Map<String, String> properties = new LinkedHashMap<>(opened.properties());
        properties.put("validation", "off");
        assertEquals(properties, listed.properties(), "what the opened device says, without validation");
        assertEquals(opened.defaultStream(), listed.defaultStream());
        assertEquals(opened.supportsEvents(), listed.supportsEvents());
        assertSame(opened, listed.device());
        MemorySegment buffer = listed.allocate(64, 16);
        MemorySegment stream = listed.createStream();
        try {
            assertTrue(opened.deviceMemory(buffer).isPresent(), "allocated on the opened device");
            opened.synchronizeStream(stream);
        } finally {
            listed.destroyStream(stream);
            opened.free(buffer);
        }
        assertEquals(opened.nativeHandles(), listed.nativeHandles());
    }
}
