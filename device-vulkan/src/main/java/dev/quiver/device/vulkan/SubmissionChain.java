package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferBeginInfo;
import org.lwjgl.vulkan.VkSubmitInfo;

import java.nio.LongBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import static org.lwjgl.vulkan.VK10.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
import static org.lwjgl.vulkan.VK10.vkBeginCommandBuffer;
import static org.lwjgl.vulkan.VK10.vkEndCommandBuffer;
import static org.lwjgl.vulkan.VK10.vkWaitForFences;

/**
 * A Quiver stream on Vulkan: an ordered sequence of submissions to the device's one queue. Each operation is
 * one {@code vkQueueSubmit} of one command buffer that waits on the binary semaphore the stream's previous
 * submission signalled and signals a new one, so a stream's work runs in order (with full memory
 * dependencies between steps) while different streams stay independent. Each submission also signals a
 * fence; {@link #synchronize()} waits for the fences of everything in flight.
 *
 * <p>Every submission ends with a barrier that makes its writes visible to the host ({@link Commands#toHost}),
 * so that buffers mapped for the host ({@link HostMapping}) can be read once its fence was waited on.
 *
 * <p>Completed submissions are retired (fences, command buffers, semaphores and staging buffers given back)
 * whenever the stream submits or synchronises. Thread-safe: one lock orders the stream's submissions.
 */
final class SubmissionChain {
    private final DeviceContext context;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Submission> inFlight = new ArrayDeque<>();
    private long lastSignal;
    private boolean destroyed;

    SubmissionChain(DeviceContext context) {
        this.context = context;
    }

    /**
     * Records commands into a command buffer of the calling thread's pool and submits them after the
     * stream's previous work.
     *
     * @param record   records the commands
     * @param onRetire run once the work completed, from whichever thread retires it; also run (the work
     *                 never having started) if submitting fails
     * @param tracked  objects the commands use
     * @return the submission
     */
    Submission submit(Consumer<VkCommandBuffer> record, List<Runnable> onRetire, List<Tracked> tracked) {
        lock.lock();
        try {
            if (destroyed) {
                throw new IllegalStateException("stream was destroyed");
            }
            retireCompletedLocked();
            CommandPools.Lease lease = context.commands().acquire();
            long fence = 0;
            long signal = 0;
            boolean submitted = false;
            boolean begun = false;
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkCommandBuffer buffer = lease.buffer();
                VulkanException.check(vkBeginCommandBuffer(buffer, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
                        .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
                begun = true;
                record.accept(buffer);
                Commands.toHost(buffer);
                VulkanException.check(vkEndCommandBuffer(buffer), "vkEndCommandBuffer");
                fence = context.fences().acquire();
                signal = context.semaphores().acquire();
                VkSubmitInfo info = VkSubmitInfo.calloc(stack).sType$Default()
                        .pCommandBuffers(stack.pointers(buffer))
                        .pSignalSemaphores(stack.longs(signal));
                if (lastSignal != 0) {
                    info.waitSemaphoreCount(1).pWaitSemaphores(stack.longs(lastSignal))
                            .pWaitDstStageMask(stack.ints(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT));
                }
                context.submit(info, fence);
                submitted = true;
            } finally {
                if (!submitted) {
                    if (begun) {
                        lease.discard();
                    } else {
                        lease.giveBack();
                    }
                    if (fence != 0) {
                        context.fences().release(fence);
                    }
                    if (signal != 0) {
                        context.semaphores().release(signal);
                    }
                    onRetire.forEach(Runnable::run);
                }
            }
            Submission submission = new Submission(fence, lease, lastSignal, onRetire, tracked);
            lastSignal = signal;
            inFlight.add(submission);
            tracked.forEach(t -> t.use(submission));
            return submission;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code action} on the calling thread if everything submitted on this stream so far has completed
     * (which it retires), holding the stream's lock so that nothing is submitted on it meanwhile.
     *
     * @param action what to run in the stream's order, with no device work of the stream pending
     * @return whether the stream was idle and {@code action} ran; it did not run otherwise
     */
    boolean runIfIdle(Runnable action) {
        lock.lock();
        try {
            if (destroyed) {
                throw new IllegalStateException("stream was destroyed");
            }
            retireCompletedLocked();
            if (!inFlight.isEmpty()) {
                return false;
            }
            action.run();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until everything submitted on this stream so far is complete, then retires it. */
    void synchronize() {
        lock.lock();
        try {
            if (!inFlight.isEmpty()) {
                try (MemoryStack stack = MemoryStack.stackPush()) {
                    LongBuffer fences = stack.mallocLong(inFlight.size());
                    inFlight.forEach(s -> fences.put(s.fence()));
                    fences.flip();
                    VulkanException.check(vkWaitForFences(context.device(), fences, true, -1L), "vkWaitForFences");
                }
            }
            retireCompletedLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Retires the submissions that have completed, in order; never blocks on the device. */
    void retireCompleted() {
        lock.lock();
        try {
            retireCompletedLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the stream's work, then releases the stream's last semaphore. Further use fails. */
    void destroy() {
        lock.lock();
        try {
            synchronize();
            destroyed = true;
            if (lastSignal != 0) {
                // signalled and never waited on: it cannot go back to the pool
                context.semaphores().destroy(lastSignal);
                lastSignal = 0;
            }
        } finally {
            lock.unlock();
        }
    }

    private void retireCompletedLocked() {
        while (!inFlight.isEmpty() && inFlight.peek().isComplete(context.device())) {
            inFlight.poll().retire(context);
        }
    }
}
