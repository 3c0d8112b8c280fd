package dev.quiver.device.vulkan;

/**
 * One allocation handed out by {@link VulkanDevice#allocate}: the buffer and the byte size the caller asked
 * for (0 for an empty allocation, whose buffer is 1 byte long). Thread-safe.
 */
final class Allocation extends Tracked {
    final BufferMemory memory;
    final long size;

    Allocation(BufferMemory memory, long size) {
        this.memory = memory;
        this.size = size;
    }
}
