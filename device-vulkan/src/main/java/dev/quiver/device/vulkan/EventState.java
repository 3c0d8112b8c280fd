package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;

import static org.lwjgl.vulkan.VK10.vkSetEvent;

/**
 * A {@code VkEvent} made by {@link VulkanDevice#createEvent} or adopted ({@link VulkanDevice#adoptEvent}),
 * with the submission and stream of its latest {@code vkCmdSetEvent} by Quiver. A host wait waits on that
 * submission's fence instead of polling the event. An event recorded on a stream with nothing in flight is
 * set from the host at once ({@link #setIfIdle}), with no submission: then there is no fence, and the event is
 * complete. An event Quiver made and never recorded counts as complete, as a CUDA event does; an adopted event
 * Quiver never recorded is whatever its status says (the application may set it from the host or on the
 * device). Thread-safe.
 */
final class EventState extends Tracked {
    final long event;
    final boolean adopted;
    private Submission setter;
    private SubmissionChain setterStream;
    /** Whether Quiver set the event from the host since it was made or last reset. */
    private boolean setOnHost;

    EventState(long event, boolean adopted) {
        this.event = event;
        this.adopted = adopted;
    }

    /**
     * @return true for an event Quiver made and never recorded, or last set from the host: complete, with
     *         nothing to wait for
     */
    synchronized boolean countsAsComplete() {
        return setter == null && !adopted;
    }

    synchronized void recorded(Submission submission, SubmissionChain stream) {
        this.setter = submission;
        this.setterStream = stream;
        this.setOnHost = false;
    }

    /**
     * @return true if the event was set before, on the device or from the host, by Quiver or (adopted) by
     *         its application: recording it again must reset it first
     */
    synchronized boolean mayBeSet() {
        return setter != null || setOnHost || adopted;
    }

    /**
     * Sets the (reset) event from the host ({@code vkSetEvent}) if {@code stream} has nothing in flight: the
     * work before the event is then complete, so the event may complete at once, without the submission and
     * fence wait of a {@code vkCmdSetEvent}. Runs under the stream's lock, so no submission of the stream
     * slips in between.
     *
     * @return true if the event is set; false if work is in flight (nothing changed)
     */
    boolean setIfIdle(VkDevice device, SubmissionChain stream) {
        return stream.runIfIdle(() -> {
            VulkanException.check(vkSetEvent(device, event), "vkSetEvent");
            synchronized (this) {
                setter = null;
                setterStream = null;
                setOnHost = true;
            }
        });
    }

    /** @return the submission that sets the event, or null if it was never recorded */
    synchronized Submission setter() {
        return setter;
    }

    /** @return the stream of that submission, or null if it was never recorded */
    synchronized SubmissionChain setterStream() {
        return setterStream;
    }
}
