package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_COMPUTE_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_GRAPHICS_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_SPARSE_BINDING_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_TRANSFER_BIT;

/**
 * The choices Quiver makes from what a physical device reports, for layouts of queue families and memory
 * types that discrete GPUs have (lavapipe has one family and one memory type, so these are given as data).
 */
class SelectionTest {
    private static final int HOST = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

    @Test
    void aDedicatedTransferFamilyIsPreferred() {
        int general = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
        assertEquals(OptionalInt.of(2), PhysicalDeviceInfo.transferQueueFamily(
                new int[] {general, VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, VK_QUEUE_TRANSFER_BIT | VK_QUEUE_SPARSE_BINDING_BIT},
                new int[] {1, 2, 2}));
        assertEquals(OptionalInt.of(0), PhysicalDeviceInfo.transferQueueFamily(new int[] {general}, new int[] {1}), "lavapipe's one family");
        assertEquals(OptionalInt.of(1), PhysicalDeviceInfo.transferQueueFamily(
                new int[] {VK_QUEUE_SPARSE_BINDING_BIT, VK_QUEUE_COMPUTE_BIT}, new int[] {1, 1}), "compute implies transfer");
        assertEquals(OptionalInt.of(1), PhysicalDeviceInfo.transferQueueFamily(
                new int[] {VK_QUEUE_TRANSFER_BIT, general}, new int[] {0, 1}), "a family without queues is skipped");
        assertEquals(OptionalInt.empty(), PhysicalDeviceInfo.transferQueueFamily(new int[] {VK_QUEUE_SPARSE_BINDING_BIT}, new int[] {1}));
    }

    @Test
    void arrayBuffersGoDeviceLocalAndStagingBuffersHostVisible() {
        List<PhysicalDeviceInfo.MemoryType> discrete = List.of(
                new PhysicalDeviceInfo.MemoryType(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, 0),
                new PhysicalDeviceInfo.MemoryType(HOST, 1),
                new PhysicalDeviceInfo.MemoryType(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
                new PhysicalDeviceInfo.MemoryType(HOST | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 1));
        assertEquals(2, MemoryPurpose.DEVICE.select(discrete, 0b1111), "device-local, never lazily allocated");
        assertEquals(3, MemoryPurpose.STAGING.select(discrete, 0b1111), "host-visible and coherent, cached preferred");
        assertEquals(1, MemoryPurpose.STAGING.select(discrete, 0b0111), "uncached when cached is not allowed");
        assertEquals(1, MemoryPurpose.DEVICE.select(discrete, 0b0010), "any allowed type when none is device-local");
        DeviceException none = assertThrows(DeviceException.class, () -> MemoryPurpose.STAGING.select(discrete, 0b0101));
        assertEquals("no Vulkan memory type for staging buffers: required property flags 0x6 among allowed types 0x5", none.getMessage());
    }

    @Test
    void stagingBuffersComeInPowersOfTwoFrom64KiB() {
        assertEquals(64 * 1024, StagingPool.capacity(1));
        assertEquals(64 * 1024, StagingPool.capacity(64 * 1024));
        assertEquals(128 * 1024, StagingPool.capacity(64 * 1024 + 1));
        assertEquals(4 << 20, StagingPool.capacity(3 << 20));
        assertEquals(4 << 20, StagingPool.capacity(4 << 20));
    }
}
