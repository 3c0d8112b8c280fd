package dev.quiver.device.vulkan;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.VK_API_VERSION_1_0;
import static org.lwjgl.vulkan.VK10.vkSetEvent;

/**
 * Adopting an application's {@code VkInstance}, {@code VkPhysicalDevice}, {@code VkDevice} and {@code VkQueue}
 * given as raw handles: Quiver works on the application's objects, reads its buffers, waits on its events,
 * shares its queue lock, and leaves nothing behind on its device.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdoptionTest {
    private final ApplicationVulkan application = new ApplicationVulkan();

    @AfterAll
    void applicationShutsDownWithoutValidationMessages() {
        application.close();
        assertEquals(List.of(), application.messages, "the application's validation layer saw no misuse");
    }

    @Test
    void adoptedDeviceWorksOnTheApplicationsHandles() {
        try (VulkanDevice device = application.adopt(); Arena arena = Arena.ofConfined()) {
            assertEquals(application.device.address(), device.vkDevice());
            assertEquals(application.queue.address(), device.vkQueue());
            assertEquals(application.physical.address(), device.vkPhysicalDevice());
            assertEquals(application.instance.address(), device.vkInstance());
            assertEquals(application.queueFamily, device.queueFamilyIndex());
            assertEquals(0, device.deviceId(), "the first physical device of the application's instance");
            assertTrue(device.properties().containsKey("adopted"), device.properties().toString());

            MemorySegment buffer = device.allocate(1000, 64);
            assertTrue(device.deviceMemory(buffer).isPresent(), "Quiver knows the memory behind its buffer");
            byte[] bytes = new byte[1000];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 7);
            }
            device.copyFromHost(arena.allocateFrom(JAVA_BYTE, bytes), buffer, 0, device.defaultStream());
            MemorySegment back = arena.allocate(1000);
            device.copyToHost(buffer, 0, back, device.defaultStream());
            assertArrayEquals(bytes, back.toArray(JAVA_BYTE));
            device.free(buffer);
        }
    }

    @Test
    void copiesFromABufferTheApplicationOwns() {
        byte[] contents = new byte[4096];
        for (int i = 0; i < contents.length; i++) {
            contents[i] = (byte) (i ^ 0x5a);
        }
        long foreign = application.bufferHolding(contents);
        try (VulkanDevice device = application.adopt(); Arena arena = Arena.ofConfined()) {
            MemorySegment back = arena.allocate(1000);
            device.copyToHost(MemorySegment.ofAddress(foreign), 3000, back, device.defaultStream());
            assertArrayEquals(Arrays.copyOfRange(contents, 3000, 4000), back.toArray(JAVA_BYTE),
                    "bytes at offset 3000 of the application's VkBuffer; the offset travelled beside the handle");
            assertTrue(device.deviceMemory(MemorySegment.ofAddress(foreign)).isEmpty(), "Quiver does not own that buffer");
            assertThrows(IllegalArgumentException.class, () -> device.free(MemorySegment.ofAddress(foreign)),
                    "Quiver never frees a buffer it did not allocate");
        }
    }

    @Test
    void hostWaitPollsAnEventTheApplicationSets() throws Exception {
        long event = application.event();
        try (VulkanDevice device = application.adopt(); Arena arena = Arena.ofConfined()) {
            MemorySegment syncEvent = arena.allocate(JAVA_LONG);
            syncEvent.set(JAVA_LONG, 0, event);
            MemorySegment handle = device.eventFromSyncEvent(syncEvent);
            assertEquals(event, handle.address(), "sync_event points to the VkEvent");
            assertFalse(device.isEventComplete(handle), "not set yet");
            CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> device.waitEvent(handle));
            Thread.sleep(50);
            assertFalse(waiter.isDone(), "the host wait blocks until the application sets the event");
            assertEquals(0, vkSetEvent(application.device, event));
            waiter.get(30, TimeUnit.SECONDS);
            assertTrue(device.isEventComplete(handle));
        }
    }

    @Test
    void submissionsHoldTheQueueLockTheApplicationShares() throws Exception {
        ReentrantLock queueLock = new ReentrantLock();
        try (VulkanDevice device = VulkanDevice.adopt(application.instance.address(), application.physical.address(),
                application.device.address(), application.queue.address(), application.queueFamily, ApplicationVulkan.API_VERSION, queueLock);
             Arena arena = Arena.ofShared()) {
            MemorySegment buffer = device.allocate(64, 64);
            device.copyFromHost(arena.allocate(32).fill((byte) 9), buffer, 0, device.defaultStream());
            queueLock.lock();
            CompletableFuture<Void> copy;
            try {
                // a device-to-device copy always submits (a host copy into mapped memory may not)
                copy = CompletableFuture.runAsync(() -> device.copyWithinDevice(buffer, 0, buffer, 32, 32, device.defaultStream()));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!queueLock.hasQueuedThreads() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertTrue(queueLock.hasQueuedThreads(), "Quiver's submission waits for the application's queue lock");
                assertFalse(copy.isDone());
            } finally {
                queueLock.unlock();
            }
            copy.get(30, TimeUnit.SECONDS);
            device.synchronizeStream(device.defaultStream());
            device.free(buffer);
        }
    }

    @Test
    void rejectsHandlesThatDoNotFit() {
        long instance = application.instance.address();
        long physical = application.physical.address();
        long device = application.device.address();
        long queue = application.queue.address();
        int family = application.queueFamily;
        int version = ApplicationVulkan.API_VERSION;
        assertThrows(IllegalArgumentException.class, () -> VulkanDevice.adopt(instance, physical, device, queue, family, VK_API_VERSION_1_0),
                "Vulkan 1.0 is too old");
        assertThrows(IllegalArgumentException.class, () -> VulkanDevice.adopt(instance, 0, device, queue, family, version),
                "VK_NULL_HANDLE physical device");
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                () -> VulkanDevice.adopt(instance, Lavapipe.device().vkPhysicalDevice(), device, queue, family, version));
        assertTrue(foreign.getMessage().contains("is not one of"), foreign.getMessage());
        IllegalArgumentException noFamily = assertThrows(IllegalArgumentException.class,
                () -> VulkanDevice.adopt(instance, physical, device, queue, 99, version));
        assertTrue(noFamily.getMessage().contains("queue family 99"), noFamily.getMessage());
    }

    @Test
    void devicesOfTheProviderLiveAsLongAsTheProcess() {
        VulkanDevice own = Lavapipe.device();
        assertThrows(IllegalStateException.class, own::close);
        assertEquals("on", own.properties().get("validation"));
    }
}
