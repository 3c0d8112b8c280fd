package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;

import java.util.List;

import static org.lwjgl.vulkan.VK10.VK_NOT_READY;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;
import static org.lwjgl.vulkan.VK10.vkGetFenceStatus;
import static org.lwjgl.vulkan.VK10.vkWaitForFences;

/**
 * One {@code vkQueueSubmit} of a {@link SubmissionChain}: a command buffer, the fence it signals, the semaphore it
 * waited on (the previous submission's), and what to give back when it completes. Retired exactly once by
 * its stream, after which its fence and command buffer are reused; waits on a retired submission return at
 * once. Thread-safe.
 */
final class Submission {
    private final long fence;
    private final CommandPools.Lease commands;
    private final long waitedSemaphore;
    private final List<Runnable> onRetire;
    private final List<Tracked> tracked;
    private boolean retired;

    Submission(long fence, CommandPools.Lease commands, long waitedSemaphore, List<Runnable> onRetire, List<Tracked> tracked) {
        this.fence = fence;
        this.commands = commands;
        this.waitedSemaphore = waitedSemaphore;
        this.onRetire = List.copyOf(onRetire);
        this.tracked = List.copyOf(tracked);
    }

    /** Blocks until the submission's work is complete. */
    synchronized void await(VkDevice device) {
        if (!retired) {
            VulkanException.check(vkWaitForFences(device, fence, true, -1L), "vkWaitForFences");
        }
    }

    /** @return whether the work is complete; never blocks */
    synchronized boolean isComplete(VkDevice device) {
        if (retired) {
            return true;
        }
        int result = VulkanException.check(vkGetFenceStatus(device, fence), "vkGetFenceStatus");
        if (result != VK_SUCCESS && result != VK_NOT_READY) {
            throw new VulkanException("vkGetFenceStatus", result);
        }
        return result == VK_SUCCESS;
    }

    long fence() {
        return fence;
    }

    List<Tracked> tracked() {
        return tracked;
    }

    /** Gives back what the completed submission held. Called once, by its stream. */
    void retire(DeviceContext context) {
        synchronized (this) {
            retired = true;
        }
        context.fences().release(fence);
        commands.giveBack();
        if (waitedSemaphore != 0) {
            context.semaphores().release(waitedSemaphore);
        }
        onRetire.forEach(Runnable::run);
        tracked.forEach(t -> t.done(this));
    }
}
