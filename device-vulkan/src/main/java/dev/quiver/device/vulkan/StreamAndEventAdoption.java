package dev.quiver.device.vulkan;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What adopting a {@code VkQueue} as a stream and a {@code VkEvent} as an event means for one
 * {@link VulkanDevice}, whose stream and event tables ({@link StreamTable}, {@link DeviceEvents}) it shares.
 *
 * <p><b>Queues.</b> Quiver's streams are submission sequences on the device's one queue, because
 * {@code vkCmdWaitEvents} only waits for events set on the same queue and every stream must be able to wait
 * for every other's events. So the one {@code VkQueue} a device accepts is its own (the application's, for a
 * device adopted with {@link VulkanDevice#adopt}): adopting it makes a new stream on it, an id in the
 * stream table like those of {@code createStream}. Forgetting that stream waits for its work and drops it;
 * the queue itself is never destroyed (it belongs to its {@code VkDevice}), with or without {@code destroy}.
 * A stream id the device already serves is accepted as it is.
 *
 * <p><b>Events.</b> A {@code VkEvent} of the device's {@code VkDevice} (checked as far as Vulkan allows:
 * not {@code VK_NULL_HANDLE}, and {@code vkGetEventStatus} answers set or reset) is entered in the event
 * table as adopted ({@link EventState#adopted}), so that every event method takes it. Until Quiver records
 * it, the application sets it from the host ({@code vkSetEvent}): host waits poll it, and stream waits name
 * the host stage alone as their source, as {@code vkCmdWaitEvents} requires for an event set by
 * {@code vkSetEvent} after the wait is submitted. (An event the application sets on the device reaches Quiver
 * as an array's {@code sync_event} instead.) Once Quiver records it, it behaves as an event Quiver made. An
 * event the device made is accepted as it is. Forgetting an adopted event waits for Quiver's work that uses it and drops it
 * from the table; {@code destroy} also destroys it.
 *
 * <p>Thread-safe: the tables are concurrent and each adoption enters a new entry atomically.
 */
final class StreamAndEventAdoption {
    private final DeviceContext context;
    private final Map<Long, SubmissionChain> streams;
    private final Map<Long, EventState> events;
    private final Supplier<MemorySegment> newStream;
    private final Set<Long> queueStreams = ConcurrentHashMap.newKeySet();
    private final String device;

    /**
     * @param context   the device's queue and {@code VkDevice}
     * @param streams   the device's stream table
     * @param events    the device's event table
     * @param newStream makes and enters a new stream, returning its handle
     * @param device    the device, as messages name it
     */
    StreamAndEventAdoption(DeviceContext context, Map<Long, SubmissionChain> streams, Map<Long, EventState> events,
                           Supplier<MemorySegment> newStream, String device) {
        this.context = context;
        this.streams = streams;
        this.events = events;
        this.newStream = newStream;
        this.device = device;
    }

    /**
     * @param nativeStream the device's own {@code VkQueue}, a stream handle of the device, or NULL (the default
     *                     stream)
     * @return a stream handle: a new stream on the queue, or the handle given
     * @throws IllegalArgumentException for any other queue or handle
     */
    MemorySegment adoptStream(MemorySegment nativeStream) {
        long handle = nativeStream.address();
        if (handle == 0 || streams.containsKey(handle)) {
            return nativeStream;
        }
        long queue = context.queue().address();
        if (handle != queue) {
            throw new IllegalArgumentException("0x" + Long.toHexString(handle) + " is neither a stream of " + device
                    + " nor its VkQueue 0x" + Long.toHexString(queue) + " (family " + context.queueFamily()
                    + "): Quiver's streams all submit to that one queue, since vkCmdWaitEvents waits only for events set on "
                    + "the same queue; to work on another queue, adopt the device with it (VulkanDevice.adopt)");
        }
        MemorySegment stream = newStream.get();
        queueStreams.add(stream.address());
        return stream;
    }

    /**
     * Forgets a stream made by {@link #adoptStream} from the queue: waits for its work and drops it.
     *
     * @param stream a stream handle
     * @return false if the stream was not made from the queue (the caller handles it as its own)
     */
    boolean forgetQueueStream(MemorySegment stream) {
        if (!queueStreams.remove(stream.address())) {
            return false;
        }
        SubmissionChain removed = streams.remove(stream.address());
        if (removed != null) {
            removed.destroy();
        }
        return true;
    }

    /**
     * @param nativeEvent a {@code VkEvent} of the device's {@code VkDevice}
     * @return the same handle, now in the event table
     * @throws IllegalArgumentException if it is {@code VK_NULL_HANDLE} or {@code vkGetEventStatus} fails on it
     */
    MemorySegment adoptEvent(MemorySegment nativeEvent) {
        long handle = nativeEvent.address();
        if (handle == 0) {
            throw new IllegalArgumentException("VkEvent is VK_NULL_HANDLE");
        }
        if (!events.containsKey(handle)) {
            try {
                EventPolling.isSet(context.device(), handle);
            } catch (VulkanException e) {
                throw new IllegalArgumentException("VkEvent 0x" + Long.toHexString(handle) + " is not an event of " + device
                        + ": " + e.getMessage(), e);
            }
            events.putIfAbsent(handle, new EventState(handle, true));
        }
        return MemorySegment.ofAddress(handle);
    }

    /**
     * Forgets an adopted event without destroying it: waits for Quiver's work that uses it and drops it.
     *
     * @param event an event handle of the device
     * @return false if the event was made by the device (the caller keeps it)
     * @throws IllegalArgumentException if the device knows no such event
     */
    boolean forgetAdoptedEvent(MemorySegment event) {
        EventState state = events.get(event.address());
        if (state == null) {
            throw new IllegalArgumentException("VkEvent 0x" + Long.toHexString(event.address()) + " is not an event of " + device
                    + " (never adopted, or already forgotten or destroyed)");
        }
        if (!state.adopted) {
            return false;
        }
        events.remove(event.address());
        state.awaitUsers(context.device());
        return true;
    }
}
