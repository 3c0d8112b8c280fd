package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCreateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkExportMemoryAllocateInfo;
import org.lwjgl.vulkan.VkExternalMemoryBufferCreateInfo;
import org.lwjgl.vulkan.VkImportMemoryFdInfoKHR;
import org.lwjgl.vulkan.VkMemoryAllocateInfo;
import org.lwjgl.vulkan.VkMemoryRequirements;

import java.nio.LongBuffer;

import static org.lwjgl.vulkan.VK10.VK_SHARING_MODE_EXCLUSIVE;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;
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
        return make(device, info, size, usage, purpose, 0, -1, -1);
    }

    /**
     * Like {@link #create}, with memory that can be exported as the given external handle types
     * ({@code VkExportMemoryAllocateInfo}) and a buffer that may be bound to such memory.
     *
     * @param device      the logical device, with the extensions of {@code handleTypes} enabled
     * @param info        its physical device's memory types and limits
     * @param size        bytes; 0 makes a 1-byte buffer
     * @param usage       {@code VkBufferUsageFlags}
     * @param purpose     which memory type to choose
     * @param handleTypes {@code VkExternalMemoryHandleTypeFlags}
     * @return the bound buffer, owned by the caller
     */
    static BufferMemory createExportable(VkDevice device, PhysicalDeviceInfo info, long size, int usage, MemoryPurpose purpose,
                                         int handleTypes) {
        return make(device, info, size, usage, purpose, handleTypes, -1, -1);
    }

    /**
     * Imports memory another process exported as an opaque file descriptor ({@code VkImportMemoryFdInfoKHR})
     * into a new {@code VkDeviceMemory} and binds a new buffer covering all of it at offset 0.
     *
     * @param device         the logical device, with {@code VK_KHR_external_memory_fd} enabled
     * @param info           its physical device's memory types and limits
     * @param allocationSize the exported memory's {@code allocationSize}
     * @param usage          {@code VkBufferUsageFlags}
     * @param purpose        which memory type to choose: the exporter's
     * @param handleType     the one {@code VkExternalMemoryHandleTypeFlagBits} of {@code fd}
     * @param fd             the descriptor; taken over: the memory owns it once imported, and it is closed here
     *                       if the import fails, unless the driver closed it already (Mesa's lavapipe closes the
     *                       descriptor of a failed import: it is closed here only while it still names the file it
     *                       named before the call)
     * @return the bound buffer, owned by the caller
     */
    static BufferMemory importFd(VkDevice device, PhysicalDeviceInfo info, long allocationSize, int usage, MemoryPurpose purpose,
                                 int handleType, int fd) {
        return make(device, info, allocationSize, usage, purpose, handleType, fd, allocationSize);
    }

    private static BufferMemory make(VkDevice device, PhysicalDeviceInfo info, long size, int usage, MemoryPurpose purpose,
                                     int handleTypes, int importFd, long importSize) {
        long capacity = Math.max(size, 1);
        if (info.maxAllocation() > 0 && capacity > info.maxAllocation()) {
            FileDescriptors.close(importFd);
            throw new DeviceException("cannot allocate " + size + " bytes on " + info.name()
                    + ": larger than its maxMemoryAllocationSize of " + info.maxAllocation() + " bytes", DeviceException.Kind.OUT_OF_MEMORY);
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer handle = stack.mallocLong(1);
            VkBufferCreateInfo bufferInfo = VkBufferCreateInfo.calloc(stack).sType$Default()
                    .size(capacity).usage(usage).sharingMode(VK_SHARING_MODE_EXCLUSIVE);
            if (handleTypes != 0) {
                bufferInfo.pNext(VkExternalMemoryBufferCreateInfo.calloc(stack).sType$Default().handleTypes(handleTypes));
            }
            int created = vkCreateBuffer(device, bufferInfo, null, handle);
            if (created != VK_SUCCESS) {
                FileDescriptors.close(importFd);
                VulkanException.check(created, "vkCreateBuffer");
            }
            long buffer = handle.get(0);
            try {
                VkMemoryRequirements requirements = VkMemoryRequirements.calloc(stack);
                vkGetBufferMemoryRequirements(device, buffer, requirements);
                int type = purpose.select(info.memoryTypes(), requirements.memoryTypeBits());
                VkMemoryAllocateInfo allocateInfo = VkMemoryAllocateInfo.calloc(stack).sType$Default()
                        .allocationSize(importFd >= 0 ? importSize : requirements.size())
                        .memoryTypeIndex(type);
                if (importFd >= 0) {
                    if (requirements.size() > importSize) {
                        throw new IllegalArgumentException("an imported allocation of " + importSize + " bytes cannot hold a "
                                + capacity + "-byte VkBuffer, which needs " + requirements.size() + " bytes");
                    }
                    allocateInfo.pNext(VkImportMemoryFdInfoKHR.calloc(stack).sType$Default().handleType(handleTypes).fd(importFd));
                } else if (handleTypes != 0) {
                    allocateInfo.pNext(VkExportMemoryAllocateInfo.calloc(stack).sType$Default().handleTypes(handleTypes));
                }
                long[] file = importFd >= 0 ? FileDescriptors.identity(importFd) : null;
                int allocated = vkAllocateMemory(device, allocateInfo, null, handle);
                if (importFd >= 0 && (allocated == VK_SUCCESS || !java.util.Arrays.equals(file, FileDescriptors.identity(importFd)))) {
                    importFd = -1;   // the memory owns an imported descriptor; a driver that closed a refused one did
                }
                VulkanException.check(allocated, "vkAllocateMemory");
                long memory = handle.get(0);
                try {
                    VulkanException.check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
                } catch (RuntimeException e) {
                    vkFreeMemory(device, memory, null);
                    throw e;
                }
                return new BufferMemory(buffer, memory, capacity, allocateInfo.allocationSize(), info.memoryTypes().get(type).flags());
            } catch (RuntimeException e) {
                FileDescriptors.close(importFd);
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
