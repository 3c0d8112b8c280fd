package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.HostCopy;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkMappedMemoryRange;

import java.lang.foreign.MemorySegment;

import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
import static org.lwjgl.vulkan.VK10.VK_WHOLE_SIZE;
import static org.lwjgl.vulkan.VK10.vkFlushMappedMemoryRanges;
import static org.lwjgl.vulkan.VK10.vkInvalidateMappedMemoryRanges;
import static org.lwjgl.vulkan.VK10.vkMapMemory;

/**
 * The host's view of a buffer whose memory is host-visible: all of it mapped once ({@code vkMapMemory}), for
 * the life of the memory, which {@code vkFreeMemory} unmaps. Copies through it are host memory copies on
 * the mapped pointer ({@link HostCopy}); where the memory is not host-coherent, a write is followed by
 * {@code vkFlushMappedMemoryRanges} and a read preceded by {@code vkInvalidateMappedMemoryRanges}, over the
 * copied range widened to whole {@code nonCoherentAtomSize} granules.
 *
 * <p>Ordering against device work is the caller's: write a range only while no pending work uses it, read
 * it only after the work that wrote it completed (every submission ends with a barrier that makes its writes
 * visible to the host, see {@link SubmissionChain}). Immutable; copies of disjoint ranges may run on any threads at
 * once. Owned by whoever owns the buffer's memory.
 *
 * <p>Memory imported from another process ({@link #foreign()}) is copied with {@link ForeignCopy}, never the C
 * library's {@code memcpy}, so that a page of it that faults after all is an exception, not the end of the process.
 */
final class HostMapping {
    private final long memory;
    private final long allocationSize;
    private final MemorySegment mapped;
    private final boolean coherent;
    private final boolean cached;
    private final long atom;
    private final boolean foreign;

    private HostMapping(BufferMemory buffer, MemorySegment mapped, long atom, boolean foreign) {
        this.memory = buffer.memory();
        this.allocationSize = buffer.allocationSize();
        this.mapped = mapped;
        this.coherent = (buffer.propertyFlags() & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
        this.cached = (buffer.propertyFlags() & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0;
        this.atom = Math.max(atom, 1);
        this.foreign = foreign;
    }

    /**
     * @param device              the buffer's device
     * @param buffer              a buffer and its memory
     * @param nonCoherentAtomSize the device's {@code nonCoherentAtomSize}
     * @return the buffer's memory mapped, or null where its memory type is not host-visible
     * @throws VulkanException if {@code vkMapMemory} fails
     */
    static HostMapping mapIfVisible(VkDevice device, BufferMemory buffer, long nonCoherentAtomSize) {
        return mapIfVisible(device, buffer, nonCoherentAtomSize, false);
    }

    /**
     * @param device              the buffer's device
     * @param buffer              a buffer and its memory
     * @param nonCoherentAtomSize the device's {@code nonCoherentAtomSize}
     * @param foreign             whether the memory was imported from another process
     * @return the buffer's memory mapped, or null where its memory type is not host-visible
     * @throws VulkanException if {@code vkMapMemory} fails
     */
    static HostMapping mapIfVisible(VkDevice device, BufferMemory buffer, long nonCoherentAtomSize, boolean foreign) {
        if ((buffer.propertyFlags() & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == 0) {
            return null;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            PointerBuffer pointer = stack.mallocPointer(1);
            VulkanException.check(vkMapMemory(device, buffer.memory(), 0, VK_WHOLE_SIZE, 0, pointer), "vkMapMemory");
            return new HostMapping(buffer, MemorySegment.ofAddress(pointer.get(0)).reinterpret(buffer.capacity()), nonCoherentAtomSize, foreign);
        }
    }

    /** @return the mapped memory, all of it, valid until the buffer is destroyed */
    MemorySegment segment() {
        return mapped;
    }

    /** @return whether the memory was imported from another process, whose copies are contained */
    boolean foreign() {
        return foreign;
    }

    /** @return whether the host reads this memory through its caches ({@code HOST_CACHED}), at memory speed */
    boolean cached() {
        return cached;
    }

    /** Copies all of {@code source} to {@code offset} of the buffer, then flushes the range if not coherent. */
    void write(VkDevice device, MemorySegment source, long offset) {
        copy(source, mapped.asSlice(offset, source.byteSize()), offset);
        if (!coherent) {
            Range range = Range.of(offset, source.byteSize(), atom, allocationSize);
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VulkanException.check(vkFlushMappedMemoryRanges(device, range.struct(stack, memory)), "vkFlushMappedMemoryRanges");
            }
        }
    }

    /** Invalidates the range if not coherent, then copies {@code destination.byteSize()} bytes from {@code offset}. */
    void read(VkDevice device, long offset, MemorySegment destination) {
        if (!coherent) {
            Range range = Range.of(offset, destination.byteSize(), atom, allocationSize);
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VulkanException.check(vkInvalidateMappedMemoryRanges(device, range.struct(stack, memory)), "vkInvalidateMappedMemoryRanges");
            }
        }
        copy(mapped.asSlice(offset, destination.byteSize()), destination, offset);
    }

    /** Copies with {@link HostCopy}, or for foreign memory with {@link ForeignCopy}, which reports a fault. */
    private void copy(MemorySegment from, MemorySegment to, long offset) {
        if (foreign) {
            ForeignCopy.copy(from, to, "offset " + offset + " of memory imported from another process");
        } else {
            HostCopy.copy(from, to);
        }
    }

    /**
     * A range of mapped memory to flush or invalidate: bytes {@code [offset, offset + bytes)} widened to whole
     * atoms, as Vulkan requires, and {@code VK_WHOLE_SIZE} where that reaches the end of the memory.
     *
     * @param offset start, a multiple of the atom
     * @param size   a multiple of the atom, or {@code VK_WHOLE_SIZE}
     */
    record Range(long offset, long size) {
        static Range of(long offset, long bytes, long atom, long allocationSize) {
            long start = offset - offset % atom;
            long end = offset + bytes;
            long rounded = end % atom == 0 ? end : end - end % atom + atom;
            return rounded >= allocationSize ? new Range(start, VK_WHOLE_SIZE) : new Range(start, rounded - start);
        }

        VkMappedMemoryRange struct(MemoryStack stack, long memory) {
            return VkMappedMemoryRange.calloc(stack).sType$Default().memory(memory).offset(offset).size(size);
        }
    }
}
