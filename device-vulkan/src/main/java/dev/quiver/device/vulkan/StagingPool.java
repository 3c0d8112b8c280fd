package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

/**
 * Host-visible, host-coherent staging buffers for copies between host memory and device buffers the host
 * cannot map (device-local memory that is not host-visible, buffers of other code) or reads uncached (see
 * {@link VulkanDevice}), mapped once for their whole life. None is made until such a copy needs one. Sizes are
 * rounded up to a power of two from 64 KiB so buffers can be reused; up to 64 MiB of idle staging memory is
 * kept, the rest is destroyed when released. A staging buffer is as large as the copy it serves. Thread-safe; buffers are created and destroyed outside the pool's lock.
 */
final class StagingPool {
    private static final long MIN_CAPACITY = 64 * 1024;
    private static final long MAX_IDLE_BYTES = 64L * 1024 * 1024;

    private final VkDevice device;
    private final PhysicalDeviceInfo info;
    private final Map<Long, ArrayDeque<StagingBuffer>> idle = new HashMap<>();
    private long idleBytes;

    StagingPool(VkDevice device, PhysicalDeviceInfo info) {
        this.device = device;
        this.info = info;
    }

    /**
     * A mapped staging buffer and the host view of its memory.
     *
     * @param memory  the buffer and its memory
     * @param mapping the host's view of it
     */
    record StagingBuffer(BufferMemory memory, HostMapping mapping) {}

    /** @return a staging buffer of at least {@code size} bytes, owned by the caller until {@link #release} */
    StagingBuffer acquire(long size) {
        long capacity = capacity(size);
        if (info.maxAllocation() > 0 && capacity > info.maxAllocation()) {
            capacity = size;
        }
        synchronized (this) {
            ArrayDeque<StagingBuffer> free = idle.get(capacity);
            if (free != null && !free.isEmpty()) {
                idleBytes -= capacity;
                return free.pop();
            }
        }
        BufferMemory memory = BufferMemory.create(device, info, capacity,
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryPurpose.STAGING);
        try {
            return new StagingBuffer(memory, HostMapping.mapIfVisible(device, memory, info.nonCoherentAtomSize()));
        } catch (RuntimeException e) {
            memory.destroy(device);
            throw e;
        }
    }

    /** Takes back a buffer no pending work uses. */
    void release(StagingBuffer buffer) {
        long capacity = buffer.memory().capacity();
        synchronized (this) {
            if (idleBytes + capacity <= MAX_IDLE_BYTES) {
                idle.computeIfAbsent(capacity, c -> new ArrayDeque<>()).push(buffer);
                idleBytes += capacity;
                return;
            }
        }
        buffer.memory().destroy(device);
    }

    /** Destroys every idle buffer. Call only when nothing else uses the pool. */
    synchronized void close() {
        idle.values().forEach(buffers -> buffers.forEach(b -> b.memory().destroy(device)));
        idle.clear();
        idleBytes = 0;
    }

    static long capacity(long size) {
        if (size <= MIN_CAPACITY) {
            return MIN_CAPACITY;
        }
        long power = Long.highestOneBit(size);
        return power == size || power > Long.MAX_VALUE / 2 ? size : power << 1;
    }
}
