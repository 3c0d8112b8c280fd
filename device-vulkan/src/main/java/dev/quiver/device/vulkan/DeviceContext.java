package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkQueue;
import org.lwjgl.vulkan.VkSubmitInfo;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.Lock;

import static org.lwjgl.vulkan.VK10.vkQueueSubmit;

/**
 * The logical device and queue one {@link VulkanDevice} works on, with the pools its streams share. The
 * queue is externally synchronised, as Vulkan requires: every submission holds {@code queueLock}, which an
 * application that adopted its queue into Quiver may share. Thread-safe.
 *
 * @param device      the logical device
 * @param queue       the queue all streams submit to
 * @param queueFamily its family
 * @param queueLock   held around every {@code vkQueueSubmit}
 * @param info        the physical device
 * @param commands    command pools, one per recording thread
 * @param fences      reusable fences
 * @param semaphores  reusable binary semaphores
 * @param staging     host-visible staging buffers
 */
record DeviceContext(VkDevice device, VkQueue queue, int queueFamily, Lock queueLock, PhysicalDeviceInfo info,
                     CommandPools commands, SyncObjectPool fences, SyncObjectPool semaphores, StagingPool staging) {

    static DeviceContext of(VkDevice device, VkQueue queue, int queueFamily, Lock queueLock, PhysicalDeviceInfo info) {
        return new DeviceContext(device, queue, queueFamily, queueLock, info, new CommandPools(device, queueFamily),
                SyncObjectPool.fences(device), SyncObjectPool.semaphores(device), new StagingPool(device, info));
    }

    /**
     * @param instance the {@code VkInstance} the device was made from
     * @return {@code VkInstance}, {@code VkPhysicalDevice}, {@code VkDevice}, {@code VkQueue} and
     *         {@code queueFamilyIndex} (the family index as an address value), in that order, unmodifiable
     */
    Map<String, MemorySegment> nativeHandles(long instance) {
        Map<String, MemorySegment> named = new LinkedHashMap<>();
        named.put("VkInstance", MemorySegment.ofAddress(instance));
        named.put("VkPhysicalDevice", MemorySegment.ofAddress(device.getPhysicalDevice().address()));
        named.put("VkDevice", MemorySegment.ofAddress(device.address()));
        named.put("VkQueue", MemorySegment.ofAddress(queue.address()));
        named.put("queueFamilyIndex", MemorySegment.ofAddress(queueFamily));
        return Collections.unmodifiableMap(named);
    }

    /** Submits one batch to the queue under the queue lock. */
    void submit(VkSubmitInfo info, long fence) {
        queueLock.lock();
        try {
            VulkanException.check(vkQueueSubmit(queue, info, fence), "vkQueueSubmit");
        } finally {
            queueLock.unlock();
        }
    }

    /** Destroys the pools. Call only when no work is pending. */
    void close() {
        commands.close();
        fences.close();
        semaphores.close();
        staging.close();
    }
}
