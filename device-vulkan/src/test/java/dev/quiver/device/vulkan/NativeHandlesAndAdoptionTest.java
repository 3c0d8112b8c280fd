package dev.quiver.device.vulkan;

import dev.quiver.tck.AdoptionChecks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkEventCreateInfo;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.VK_EVENT_SET;
import static org.lwjgl.vulkan.VK10.vkCreateEvent;
import static org.lwjgl.vulkan.VK10.vkDestroyEvent;
import static org.lwjgl.vulkan.VK10.vkGetEventStatus;
import static org.lwjgl.vulkan.VK10.vkSetEvent;

/**
 * A device's native handles and the adoption of a {@code VkQueue} and of {@code VkEvent}s, on lavapipe, on a
 * device adopted from an application with its own validation layer: the application makes its events with
 * LWJGL on the handles {@code nativeHandles()} gives, Quiver adopts them and orders its streams after them,
 * and at the end the application destroys its device and its validation layer reports nothing (no misuse,
 * and no event left behind, so forgetting with destroy destroyed what it was given).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeHandlesAndAdoptionTest {
    private final ApplicationVulkan application = new ApplicationVulkan();
    private final VulkanDevice device = application.adopt();
    private final VkDevice vk = lwjglDevice(device.nativeHandles());

    @AfterAll
    void closeTheDeviceThenTheApplication() {
        device.close();
        application.close();
        assertEquals(List.of(), application.messages, "the application's validation layer saw no misuse and no leak");
    }

    /** What an application using LWJGL makes of the raw handles. */
    private static VkDevice lwjglDevice(Map<String, MemorySegment> handles) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkInstance instance = new VkInstance(handles.get("VkInstance").address(), VkInstanceCreateInfo.calloc(stack).sType$Default()
                    .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default().apiVersion(ApplicationVulkan.API_VERSION)));
            VkPhysicalDevice physical = new VkPhysicalDevice(handles.get("VkPhysicalDevice").address(), instance);
            return new VkDevice(handles.get("VkDevice").address(), physical, VkDeviceCreateInfo.calloc(stack).sType$Default(),
                    ApplicationVulkan.API_VERSION);
        }
    }

    private long applicationEvent() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateEvent(vk, VkEventCreateInfo.calloc(stack).sType$Default(), null, out), "vkCreateEvent");
            return out.get(0);
        }
    }

    @Test
    void nativeHandlesNameTheObjectsTheDeviceWorksOn() {
        Map<String, MemorySegment> handles = device.nativeHandles();
        assertEquals(List.of("VkInstance", "VkPhysicalDevice", "VkDevice", "VkQueue", "queueFamilyIndex"), List.copyOf(handles.keySet()));
        assertEquals(application.instance.address(), handles.get("VkInstance").address());
        assertEquals(application.physical.address(), handles.get("VkPhysicalDevice").address());
        assertEquals(application.device.address(), handles.get("VkDevice").address());
        assertEquals(application.queue.address(), handles.get("VkQueue").address());
        assertEquals(application.queueFamily, handles.get("queueFamilyIndex").address());
        VulkanDevice own = Lavapipe.device();
        assertEquals(List.of(own.vkInstance(), own.vkPhysicalDevice(), own.vkDevice(), own.vkQueue(), (long) own.queueFamilyIndex()),
                own.nativeHandles().values().stream().map(MemorySegment::address).toList());
    }

    @Test
    void aStreamWaitingOnAnAdoptedEventRunsOnceTheHostSetsIt() throws Exception {
        long event = applicationEvent();
        MemorySegment adopted = device.adoptEvent(MemorySegment.ofAddress(event));
        assertEquals(event, adopted.address(), "a VkEvent is its own handle");
        assertFalse(device.isEventComplete(adopted), "the application has not set it");
        MemorySegment stream = device.createStream();
        MemorySegment buffer = device.allocate(64, 64);
        try (Arena arena = Arena.ofShared()) {
            device.copyFromHost(arena.allocate(64).fill((byte) 1), buffer, 0, stream);
            device.synchronizeStream(stream);
            // Lavapipe may run a submission on the thread that submits it: wait and copy on another thread.
            CompletableFuture<Byte> afterTheEvent = CompletableFuture.supplyAsync(() -> {
                device.streamWaitEvent(stream, adopted);
                device.copyFromHost(arena.allocate(64).fill((byte) 2), buffer, 0, stream);
                MemorySegment back = arena.allocate(64);
                device.copyToHost(buffer, 0, back, stream);
                return back.get(JAVA_BYTE, 63);
            });
            Thread.sleep(200);
            assertFalse(afterTheEvent.isDone(), "the stream waits for the application's event");
            assertEquals(0, vkSetEvent(vk, event));
            assertEquals((byte) 2, afterTheEvent.get(30, TimeUnit.SECONDS), "the copy ordered after the event ran once the host set it");
            assertTrue(device.isEventComplete(adopted));
            device.forgetEvent(adopted, false);
            assertEquals(VK_EVENT_SET, vkGetEventStatus(vk, event), "forgetting without destroy leaves the event to the application");
        } finally {
            device.free(buffer);
            device.destroyStream(stream);
            vkDestroyEvent(vk, event, null);
        }
    }

    @Test
    void anAdoptedEventServesEveryOperationAndForgettingWithDestroyDestroysIt() {
        MemorySegment adopted = device.adoptEvent(MemorySegment.ofAddress(applicationEvent()));
        AdoptionChecks.everyOperationWithEvent(device, adopted);
        device.forgetEvent(adopted, true);
        IllegalArgumentException gone = assertThrows(IllegalArgumentException.class, () -> device.forgetEvent(adopted, false));
        assertTrue(gone.getMessage().contains("never adopted, or already forgotten or destroyed"), gone.getMessage());
    }

    @Test
    void theDevicesQueueIsAdoptedAsANewStreamOnIt() {
        MemorySegment queue = device.nativeHandles().get("VkQueue");
        MemorySegment stream = device.adoptStream(queue);
        assertNotEquals(queue.address(), stream.address(), "a stream id, not the queue");
        AdoptionChecks.everyOperationOnStream(device, stream);
        assertEquals(stream, device.adoptStream(stream), "a stream of the device is accepted as it is");
        device.forgetStream(stream, true);
        assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(stream), "the stream is gone");
        AdoptionChecks.everyOperationOnStream(device, device.defaultStream());
    }

    @Test
    void otherQueuesAndBadHandlesAreRefused() {
        MemorySegment otherQueue = Lavapipe.device().nativeHandles().get("VkQueue");
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> device.adoptStream(otherQueue));
        assertTrue(other.getMessage().contains("Quiver's streams all submit to that one queue"), other.getMessage());
        assertEquals("VkEvent is VK_NULL_HANDLE", assertThrows(IllegalArgumentException.class, () -> device.adoptEvent(MemorySegment.NULL)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.forgetStream(MemorySegment.ofAddress(999_999), false), "no such stream");
        assertThrows(IllegalArgumentException.class, () -> device.forgetStream(MemorySegment.NULL, true), "the default stream is never destroyed");
    }
}
