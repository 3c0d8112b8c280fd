package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCreateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkMemoryAllocateInfo;
import org.lwjgl.vulkan.VkMemoryRequirements;

import java.nio.LongBuffer;

import static org.lwjgl.vulkan.VK10.VK_SHARING_MODE_EXCLUSIVE;
import static org.lwjgl.vulkan.VK10.vkAllocateMemory;
import static org.lwjgl.vulkan.VK10.vkBindBufferMemory;
import static org.lwjgl.vulkan.VK10.vkCreateBuffer;
import static org.lwjgl.vulkan.VK10.vkDestroyBuffer;
import static org.lwjgl.vulkan.VK10.vkFreeMemory;
import static org.lwjgl.vulkan.VK10.vkGetBufferMemoryRequirements;

/**
 * A {@code VkBuffer} bound at offset 0 to its own {@code VkDeviceMemory}. Vulkan forbids buffers of size 0,
 * so a buffer is at least one byte long. Not thread-safe: its owner destroys it exactly once, after all work
 * using it is complete.
 *
 * @param buffer         the {@code VkBuffer}
 * @param memory         the {@code VkDeviceMemory} bound to it
 * @param capacity       the buffer's size in bytes (at least 1)
 * @param allocationSize the size of {@code memory}, at least {@code capacity}
 * @param propertyFlags  the {@code VkMemoryPropertyFlags} of the memory's type
 */
record BufferMemory(long buffer, long memory, long capacity, long allocationSize, int propertyFlags) {

    /**
     * @param device  the logical device
     * @param info    its physical device's memory types and limits
     * @param size    bytes; 0 makes a 1-byte buffer
     * @param usage   {@code VkBufferUsageFlags}
     * @param purpose which memory type to choose
     * @return the bound buffer, owned by the caller
     */
    static BufferMemory create(VkDevice device, PhysicalDeviceInfo info, long size, int usage, MemoryPurpose purpose) {
        long capacity = Math.max(size, 1);
        if (info.maxAllocation() > 0 && capacity > info.maxAllocation()) {
            throw new DeviceException("cannot allocate " + size + " bytes on " + info.name()
                    + ": larger than its maxMemoryAllocationSize of " + info.maxAllocation() + " bytes", DeviceException.Kind.OUT_OF_MEMORY);
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer handle = stack.mallocLong(1);
            VkBufferCreateInfo bufferInfo = VkBufferCreateInfo.calloc(stack).sType$Default()
                    .size(capacity).usage(usage).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
            VulkanException.check(vkCreateBuffer(device, bufferInfo, null, handle), "vkCreateBuffer");
            long buffer = handle.get(0);
            try {
                VkMemoryRequirements requirements = VkMemoryRequirements.calloc(stack);
                vkGetBufferMemoryRequirements(device, buffer, requirements);
                int type = purpose.select(info.memoryTypes(), requirements.memoryTypeBits());
                VkMemoryAllocateInfo allocateInfo = VkMemoryAllocateInfo.calloc(stack).sType$Default()
                        .allocationSize(requirements.size())
                        .memoryTypeIndex(type);
                VulkanException.check(vkAllocateMemory(device, allocateInfo, null, handle), "vkAllocateMemory");
                long memory = handle.get(0);
                try {
                    VulkanException.check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
                } catch (RuntimeException e) {
                    vkFreeMemory(device, memory, null);
                    throw e;
                }
                return new BufferMemory(buffer, memory, capacity, requirements.size(), info.memoryTypes().get(type).flags());
            } catch (RuntimeException e) {
                vkDestroyBuffer(device, buffer, null);
                throw e;
            }
        }
    }

    /** Destroys the buffer and frees its memory (which unmaps it if mapped). */
    void destroy(VkDevice device) {
        vkDestroyBuffer(device, buffer, null);
        vkFreeMemory(device, memory, null);
    }
}
