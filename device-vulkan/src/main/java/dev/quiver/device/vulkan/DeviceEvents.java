package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkEventCreateInfo;
import org.lwjgl.vulkan.VkMemoryBarrier;

import java.lang.foreign.MemorySegment;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.lwjgl.vulkan.VK10.VK_ACCESS_MEMORY_READ_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_MEMORY_WRITE_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_HOST_BIT;
import static org.lwjgl.vulkan.VK10.vkCmdSetEvent;
import static org.lwjgl.vulkan.VK10.vkCmdWaitEvents;
import static org.lwjgl.vulkan.VK10.vkCreateEvent;
import static org.lwjgl.vulkan.VK10.vkDestroyEvent;
import static org.lwjgl.vulkan.VK10.vkResetEvent;

/**
 * The events of a {@link VulkanDevice}: the {@code VkEvent}s it made and those it adopted, each with its
 * {@link EventState}, by handle. It makes, records ({@code vkCmdSetEvent}), waits on (the fence of the
 * submission that sets an event it recorded, else polling through {@link EventPolling}), makes streams wait
 * on ({@code vkCmdWaitEvents}) and destroys them. It owns the events it made until {@link #destroy} or
 * {@link #destroyOwn}; adopted events stay the application's. The table is shared with
 * {@link StreamAndEventAdoption}, which enters and drops adopted events.
 *
 * <p>Thread-safe: the table is concurrent and each {@link EventState} is synchronised. Re-recording an event
 * waits for the work that used it before resetting it from the host. {@link #destroyOwn} is for a device's
 * close, after all other use has ended.
 */
final class DeviceEvents {
    /** The stage mask of {@code vkCmdSetEvent}; waits name it plus the host stage. */
    private static final int EVENT_STAGE = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;

    private final DeviceContext context;
    private final String owner;
    private final Map<Long, EventState> events = new ConcurrentHashMap<>();

    /**
     * @param context the device's {@code VkDevice}
     * @param owner   the device, as messages name it
     */
    DeviceEvents(DeviceContext context, String owner) {
        this.context = context;
        this.owner = owner;
    }

    /** @return the table of events by handle */
    Map<Long, EventState> table() {
        return events;
    }

    /** @return a new {@code VkEvent}, unsignalled */
    MemorySegment create() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateEvent(context.device(), VkEventCreateInfo.calloc(stack).sType$Default(), null, out), "vkCreateEvent");
            long event = out.get(0);
            events.put(event, new EventState(event, false));
            return MemorySegment.ofAddress(event);
        }
    }

    /**
     * Records the event on {@code target}, after resetting an event recorded or adopted before: set from the host at
     * once where nothing is in flight on the stream, else by submitting {@code vkCmdSetEvent}.
     */
    void record(SubmissionChain target, MemorySegment event) {
        long handle = VkHandles.require(event, "event");
        EventState state = events.get(handle);
        if (state != null && state.mayBeSet()) {
            state.awaitUsers(context.device());
            VulkanException.check(vkResetEvent(context.device(), handle), "vkResetEvent");
        }
        if (state != null && state.setIfIdle(context.device(), target)) {
            return;   // nothing in flight on the stream: set from the host, with no submission
        }
        Submission submission = target.submit(commands -> vkCmdSetEvent(commands, handle, EVENT_STAGE), List.of(),
                state == null ? List.of() : List.of(state));
        if (state != null) {
            state.recorded(submission, target);
        }
    }

    /** Blocks until the event is set: on the fence of the submission that sets it, else by polling. */
    void await(MemorySegment event) {
        long handle = VkHandles.require(event, "event");
        EventState state = events.get(handle);
        Submission setter = state == null ? null : state.setter();
        if (setter != null) {
            setter.await(context.device());
            state.setterStream().retireCompleted();
        } else if (state == null || state.adopted) {
            EventPolling.await(context.device(), handle);
        }
    }

    /** Submits {@code vkCmdWaitEvents} on {@code target}, unless the event counts as complete. */
    void streamWait(SubmissionChain target, MemorySegment event) {
        long handle = VkHandles.require(event, "event");
        EventState state = events.get(handle);
        if (state != null && state.countsAsComplete()) {
            return;
        }
        // An adopted event Quiver never recorded is set by the application from the host.
        int sourceStages = state != null && state.adopted && state.setter() == null ? VK_PIPELINE_STAGE_HOST_BIT
                : EVENT_STAGE | VK_PIPELINE_STAGE_HOST_BIT;
        target.submit(commands -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkMemoryBarrier.Buffer memory = VkMemoryBarrier.calloc(1, stack).sType$Default()
                        .srcAccessMask(VK_ACCESS_MEMORY_WRITE_BIT)
                        .dstAccessMask(VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
                vkCmdWaitEvents(commands, stack.longs(handle), sourceStages,
                        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, memory, null, null);
            }
        }, List.of(), state == null ? List.of() : List.of(state));
    }

    /** @return whether the event counts as complete or is set; never blocks */
    boolean isComplete(MemorySegment event) {
        long handle = VkHandles.require(event, "event");
        EventState state = events.get(handle);
        if (state != null && state.countsAsComplete()) {
            return true;
        }
        return EventPolling.isSet(context.device(), handle);
    }

    /** Waits for pending work that sets or waits on the event, then destroys it. */
    void destroy(MemorySegment event) {
        long handle = VkHandles.require(event, "event");
        EventState state = events.remove(handle);
        if (state == null) {
            throw new IllegalArgumentException("VkEvent 0x" + Long.toHexString(handle) + " was not created by " + owner
                    + " or was already destroyed");
        }
        state.awaitUsers(context.device());
        vkDestroyEvent(context.device(), handle, null);
    }

    /** @return how many events of the table the device made (not adopted ones) */
    int ownCount() {
        return (int) events.values().stream().filter(e -> !e.adopted).count();
    }

    /** Destroys every event the device made, without waiting, and empties the table: call only when no work is pending. */
    void destroyOwn() {
        events.values().stream().filter(e -> !e.adopted).forEach(e -> vkDestroyEvent(context.device(), e.event, null));
        events.clear();
    }
}
