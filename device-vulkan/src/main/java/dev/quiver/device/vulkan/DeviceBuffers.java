package dev.quiver.device.vulkan;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

/**
 * The table of a {@link VulkanDevice}'s buffers, by {@code VkBuffer} handle: those it allocated and those it
 * opened from another process's memory ({@link Allocation#imported}). It owns each {@link Allocation} from
 * {@link #allocate} or {@link #register} until {@link #free}, {@link #remove} or {@link #destroyAll}, makes the
 * buffers (bound at offset 0 to their own device-local memory, exportable where the device shares memory),
 * maps their memory for the host where it is host-visible, and checks the ranges copies address.
 *
 * <p>Thread-safe: the table is concurrent, and a buffer leaves it exactly once, by whichever thread removes it
 * first; freeing waits for the submissions that use the buffer. {@link #destroyAll} is for a device's close,
 * after all other use has ended.
 */
final class DeviceBuffers {
    /** Usage of every buffer {@link #allocate} makes. */
    static final int USAGE = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT
            | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

    private final DeviceContext context;
    private final boolean exportable;
    private final String owner;
    private final Map<Long, Allocation> allocations = new ConcurrentHashMap<>();

    /**
     * @param context    the device's {@code VkDevice} and physical device
     * @param exportable whether every buffer's memory is made exportable as an opaque file descriptor
     * @param owner      the device, as messages name it
     */
    DeviceBuffers(DeviceContext context, boolean exportable, String owner) {
        this.context = context;
        this.exportable = exportable;
        this.owner = owner;
    }

    /** @return a new buffer of its own device-local memory, mapped for the host where it is host-visible */
    MemorySegment allocate(long byteSize) {
        // Each buffer is bound at offset 0 of its own memory, so every alignment holds relative to it.
        BufferMemory memory = exportable
                ? BufferMemory.createExportable(context.device(), context.info(), byteSize, USAGE, MemoryPurpose.DEVICE, ExternalMemoryFd.HANDLE_TYPE)
                : BufferMemory.create(context.device(), context.info(), byteSize, USAGE, MemoryPurpose.DEVICE);
        return register(memory, byteSize, false);
    }

    /** Maps the memory where it is host-visible and registers the buffer; destroys it if that fails. */
    MemorySegment register(BufferMemory memory, long byteSize, boolean imported) {
        HostMapping mapping;
        try {
            mapping = HostMapping.mapIfVisible(context.device(), memory, context.info().nonCoherentAtomSize(), imported);
        } catch (RuntimeException e) {
            memory.destroy(context.device());
            throw e;
        }
        allocations.put(memory.buffer(), new Allocation(memory, byteSize, mapping, imported));
        return MemorySegment.ofAddress(memory.buffer());
    }

    /** @return the allocation of a buffer in the table, or null */
    Allocation get(long buffer) {
        return allocations.get(buffer);
    }

    /** @return the allocation of the buffer, now out of the table, or null if it was not in it */
    Allocation remove(long buffer) {
        return allocations.remove(buffer);
    }

    /** {@return the {@code VkDeviceMemory} bound to the buffer, or empty if it is not in the table} */
    OptionalLong deviceMemory(MemorySegment buffer) {
        Allocation allocation = allocations.get(buffer.address());
        return allocation == null ? OptionalLong.empty() : OptionalLong.of(allocation.memory.memory());
    }

    /** Waits for pending work that uses the buffer, then destroys it and frees its memory. */
    void free(MemorySegment pointer) {
        Allocation allocation = allocations.get(pointer.address());
        if (allocation != null && allocation.imported) {
            throw new IllegalArgumentException("VkBuffer 0x" + Long.toHexString(pointer.address())
                    + " was opened from another process: close its ImportedMemory instead of freeing it");
        }
        if (allocation == null || !allocations.remove(pointer.address(), allocation)) {
            throw new IllegalArgumentException("VkBuffer 0x" + Long.toHexString(pointer.address())
                    + " was not allocated by " + owner + " or was already freed");
        }
        allocation.awaitUsers(context.device());
        allocation.memory.destroy(context.device());
    }

    /** @return the allocation the range is in, or null for a buffer this device did not allocate */
    Allocation checkRange(MemorySegment buffer, long offset, long bytes, String role) {
        long handle = VkHandles.require(buffer, role + " VkBuffer");
        if (offset < 0) {
            throw new IllegalArgumentException(role + " offset is negative: " + offset);
        }
        Allocation allocation = allocations.get(handle);
        if (allocation == null) {
            return null;
        }
        if (offset > allocation.size || bytes > allocation.size - offset) {
            throw new IllegalArgumentException(role + " range [" + offset + ", " + offset + " + " + bytes + ") is past the end of the "
                    + allocation.size + "-byte VkBuffer 0x" + Long.toHexString(handle));
        }
        return allocation;
    }

    /** @return how many buffers the table holds */
    int count() {
        return allocations.size();
    }

    /** Destroys every buffer in the table, without waiting: call only when no work is pending. */
    void destroyAll() {
        allocations.values().forEach(a -> a.memory.destroy(context.device()));
        allocations.clear();
    }
}
