package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkFenceCreateInfo;
import org.lwjgl.vulkan.VkSemaphoreCreateInfo;

import java.nio.LongBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.lwjgl.vulkan.VK10.vkCreateFence;
import static org.lwjgl.vulkan.VK10.vkCreateSemaphore;
import static org.lwjgl.vulkan.VK10.vkDestroyFence;
import static org.lwjgl.vulkan.VK10.vkDestroySemaphore;
import static org.lwjgl.vulkan.VK10.vkResetFences;

/**
 * Reusable unsignalled fences or binary semaphores of one device. What {@link #acquire()} returns belongs to
 * the caller until {@link #release}; a released object must have no pending work and (semaphores) must be
 * unsignalled, which holds for a semaphore whose wait has completed. Thread-safe.
 */
abstract sealed class SyncObjectPool {
    protected final VkDevice device;
    private final ConcurrentLinkedQueue<Long> free = new ConcurrentLinkedQueue<>();

    private SyncObjectPool(VkDevice device) {
        this.device = device;
    }

    static SyncObjectPool fences(VkDevice device) {
        return new Fences(device);
    }

    static SyncObjectPool semaphores(VkDevice device) {
        return new Semaphores(device);
    }

    /** @return an unsignalled object, owned by the caller */
    final long acquire() {
        Long pooled = free.poll();
        return pooled != null ? pooled : create();
    }

    /** Returns an object whose work is complete; fences are reset here. */
    final void release(long handle) {
        reset(handle);
        free.add(handle);
    }

    /** Destroys an object instead of pooling it (a semaphore left signalled, for example). */
    abstract void destroy(long handle);

    /** Destroys every pooled object. Call only when nothing else uses the pool. */
    final void close() {
        for (Long handle = free.poll(); handle != null; handle = free.poll()) {
            destroy(handle);
        }
    }

    abstract long create();

    abstract void reset(long handle);

    private static final class Fences extends SyncObjectPool {
        Fences(VkDevice device) {
            super(device);
        }

        @Override
        long create() {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                LongBuffer out = stack.mallocLong(1);
                VulkanException.check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, out), "vkCreateFence");
                return out.get(0);
            }
        }

        @Override
        void reset(long handle) {
            VulkanException.check(vkResetFences(device, handle), "vkResetFences");
        }

        @Override
        void destroy(long handle) {
            vkDestroyFence(device, handle, null);
        }
    }

    private static final class Semaphores extends SyncObjectPool {
        Semaphores(VkDevice device) {
            super(device);
        }

        @Override
        long create() {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                LongBuffer out = stack.mallocLong(1);
                VulkanException.check(vkCreateSemaphore(device, VkSemaphoreCreateInfo.calloc(stack).sType$Default(), null, out), "vkCreateSemaphore");
                return out.get(0);
            }
        }

        @Override
        void reset(long handle) {
            // a binary semaphore is unsignalled once its wait completed: nothing to do
        }

        @Override
        void destroy(long handle) {
            vkDestroySemaphore(device, handle, null);
        }
    }
}
