package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;
import org.lwjgl.vulkan.VkDevice;

import java.util.concurrent.locks.LockSupport;

import static org.lwjgl.vulkan.VK10.VK_EVENT_RESET;
import static org.lwjgl.vulkan.VK10.VK_EVENT_SET;
import static org.lwjgl.vulkan.VK10.vkGetEventStatus;

/**
 * The host wait for a {@code VkEvent} Quiver did not set itself: Vulkan has no host wait on events, so the
 * host polls {@code vkGetEventStatus}, spinning briefly and then sleeping with exponential backoff from 1 µs
 * to 1 ms. (For its own events Quiver waits on the fence of the submission that sets the event instead.) The
 * wait has no time limit, like {@code cudaEventSynchronize}; an interrupt ends it with a
 * {@link DeviceException} and leaves the thread's interrupt status set. Stateless; thread-safe.
 */
final class EventPolling {
    private static final int SPINS = 64;
    private static final long FIRST_SLEEP_NANOS = 1_000;
    private static final long MAX_SLEEP_NANOS = 1_000_000;

    private EventPolling() {}

    /** @return whether the event is set; never blocks */
    static boolean isSet(VkDevice device, long event) {
        int status = vkGetEventStatus(device, event);
        if (status == VK_EVENT_SET) {
            return true;
        }
        if (status == VK_EVENT_RESET) {
            return false;
        }
        throw new VulkanException("vkGetEventStatus", status);
    }

    /** Blocks until the event is set. */
    static void await(VkDevice device, long event) {
        long sleep = FIRST_SLEEP_NANOS;
        for (int polls = 0; !isSet(device, event); polls++) {
            if (Thread.currentThread().isInterrupted()) {
                throw new DeviceException("interrupted while waiting for VkEvent 0x" + Long.toHexString(event) + " to be set");
            }
            if (polls < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(sleep);
                sleep = Math.min(sleep * 2, MAX_SLEEP_NANOS);
            }
        }
    }
}
