package dev.quiver.device.vulkan;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferAllocateInfo;
import org.lwjgl.vulkan.VkCommandPoolCreateInfo;
import org.lwjgl.vulkan.VkDevice;

import java.nio.LongBuffer;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.lwjgl.vulkan.VK10.VK_COMMAND_BUFFER_LEVEL_PRIMARY;
import static org.lwjgl.vulkan.VK10.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
import static org.lwjgl.vulkan.VK10.vkAllocateCommandBuffers;
import static org.lwjgl.vulkan.VK10.vkCreateCommandPool;
import static org.lwjgl.vulkan.VK10.vkDestroyCommandPool;
import static org.lwjgl.vulkan.VK10.vkResetCommandBuffer;

/**
 * One {@code VkCommandPool} per thread that records commands, because Vulkan requires a pool and its
 * command buffers to be used by one thread at a time. Only the owning thread allocates, records and resets
 * a pool's command buffers. A command buffer whose submission completed is handed back from any thread
 * into the pool's return queue, and the owner reuses it the next time it records. Pools of threads that
 * have ended are destroyed once all their command buffers are back. Thread-safe.
 */
final class CommandPools {
    private final VkDevice device;
    private final int queueFamily;
    private final Map<Thread, ThreadPool> pools = new ConcurrentHashMap<>();

    CommandPools(VkDevice device, int queueFamily) {
        this.device = device;
        this.queueFamily = queueFamily;
    }

    /** A command buffer lent to the recording thread until its submission completes. */
    record Lease(ThreadPool pool, VkCommandBuffer buffer) {
        /** Hands the buffer back; callable from any thread once its submission completed (or never ran). */
        void giveBack() {
            pool.returned.add(buffer);
            pool.outstanding.decrementAndGet();
        }

        /** Resets a buffer that was begun but never submitted, then hands it back; owner thread only. */
        void discard() {
            vkResetCommandBuffer(buffer, 0);
            giveBack();
        }
    }

    /** The pool of one thread. */
    static final class ThreadPool {
        final long pool;
        final Thread owner;
        final ArrayDeque<VkCommandBuffer> free = new ArrayDeque<>();
        final ConcurrentLinkedQueue<VkCommandBuffer> returned = new ConcurrentLinkedQueue<>();
        final AtomicInteger outstanding = new AtomicInteger();

        ThreadPool(long pool, Thread owner) {
            this.pool = pool;
            this.owner = owner;
        }
    }

    /** @return a command buffer of the calling thread's pool, ready to begin recording */
    Lease acquire() {
        Thread thread = Thread.currentThread();
        ThreadPool pool = pools.get(thread);
        if (pool == null) {
            sweepEndedThreads();
            pool = new ThreadPool(createPool(), thread);
            pools.put(thread, pool);
        }
        for (VkCommandBuffer back = pool.returned.poll(); back != null; back = pool.returned.poll()) {
            pool.free.push(back);
        }
        VkCommandBuffer buffer = pool.free.poll();
        if (buffer == null) {
            buffer = allocate(pool.pool);
        }
        pool.outstanding.incrementAndGet();
        return new Lease(pool, buffer);
    }

    /** @return whether {@code thread} has a pool now */
    boolean hasPool(Thread thread) {
        return pools.containsKey(thread);
    }

    /** Destroys every pool. Call only when no command buffer is pending or being recorded. */
    synchronized void close() {
        pools.values().forEach(p -> vkDestroyCommandPool(device, p.pool, null));
        pools.clear();
    }

    private synchronized void sweepEndedThreads() {
        pools.entrySet().removeIf(entry -> {
            ThreadPool pool = entry.getValue();
            if (!entry.getKey().isAlive() && pool.outstanding.get() == 0) {
                vkDestroyCommandPool(device, pool.pool, null);
                return true;
            }
            return false;
        });
    }

    private long createPool() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkCommandPoolCreateInfo info = VkCommandPoolCreateInfo.calloc(stack).sType$Default()
                    .flags(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT)
                    .queueFamilyIndex(queueFamily);
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateCommandPool(device, info, null, out), "vkCreateCommandPool");
            return out.get(0);
        }
    }

    private VkCommandBuffer allocate(long pool) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkCommandBufferAllocateInfo info = VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
                    .commandPool(pool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1);
            PointerBuffer out = stack.mallocPointer(1);
            VulkanException.check(vkAllocateCommandBuffers(device, info, out), "vkAllocateCommandBuffers");
            return new VkCommandBuffer(out.get(0), device);
        }
    }
}
