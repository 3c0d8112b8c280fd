package dev.quiver.device.vulkan;

/**
 * One allocation handed out by {@link VulkanDevice#allocate}: the buffer, the byte size the caller asked for
 * (0 for an empty allocation, whose buffer is 1 byte long), and the host's mapping of its memory where the
 * memory is host-visible (else null). Owned by the device that made it, which frees it once. Thread-safe.
 * An allocation opened from another process's memory ({@link VulkanDevice#openMemory}) is {@link #imported}:
 * it is closed through its {@code ImportedMemory}, never freed.
 */
final class Allocation extends Tracked {
    final BufferMemory memory;
    final long size;
    final HostMapping mapping;
    final boolean imported;

    Allocation(BufferMemory memory, long size, HostMapping mapping) {
        this(memory, size, mapping, false);
    }

    Allocation(BufferMemory memory, long size, HostMapping mapping, boolean imported) {
        this.memory = memory;
        this.size = size;
        this.mapping = mapping;
        this.imported = imported;
    }
}
