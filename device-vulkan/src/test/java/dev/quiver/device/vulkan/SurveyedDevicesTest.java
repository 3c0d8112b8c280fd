package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.IpcMechanism;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The survey reads each physical device through its own downcalls exactly as the LWJGL probe does, and a
 * device listed from it describes itself as the opened device does, answers its inter-process mechanism without
 * opening, and hands every other call on to that device.
 */
class SurveyedDevicesTest {

    @Test
    void theSurveyReadsWhatTheProbeReads() {
        VulkanDevice opened = Lavapipe.device();
        List<SurveyedDevice> surveyed = VulkanSurvey.devices().orElseThrow(() -> new AssertionError("the survey found no device"));
        assertEquals(opened.context().info(), surveyed.get((int) opened.deviceId()).info());
    }

    @Test
    void theSurveySharesMemoryAsTheOpenedDeviceDoes() {
        VulkanDevice opened = Lavapipe.device();
        SurveyedDevice surveyed = VulkanSurvey.devices().orElseThrow().get((int) opened.deviceId());
        assertEquals(opened.ipcMechanism() == IpcMechanism.VULKAN_FD, surveyed.sharesOpaqueFd(),
                "the survey and the opened device ask the physical device the same");
        assertEquals(IpcMechanism.VULKAN_FD, opened.ipcMechanism(), "lavapipe offers opaque file descriptors");
    }

    @Test
    void aListedDeviceAnswersItsMechanismWithoutOpening() {
        VulkanDevice opened = Lavapipe.device();
        DeferredVulkanDevice listed = new DeferredVulkanDevice(VulkanSurvey.devices().orElseThrow().get((int) opened.deviceId()), opened.deviceId());
        assertEquals(opened.ipcMechanism(), listed.ipcMechanism());
        assertFalse(listed.isOpened(), "asking for the mechanism does not open the device");
        listed.nativeHandles();
        assertTrue(listed.isOpened(), "a call that needs the device opens it");
    }

    @Test
    void aListedDeviceThatTheSurveyFoundWithoutSharingAnswersNone() {
        VulkanDevice opened = Lavapipe.device();
        SurveyedDevice surveyed = VulkanSurvey.devices().orElseThrow().get((int) opened.deviceId());
        DeferredVulkanDevice listed = new DeferredVulkanDevice(new SurveyedDevice(surveyed.info(), false), opened.deviceId());
        assertEquals(IpcMechanism.NONE, listed.ipcMechanism());
        assertFalse(listed.isOpened());
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
        assertEquals(opened.capability(DeviceEvents.class).isPresent(), listed.capability(DeviceEvents.class).isPresent());
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
