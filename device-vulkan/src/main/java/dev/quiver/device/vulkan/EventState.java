package dev.quiver.device.vulkan;

/**
 * A {@code VkEvent} made by {@link VulkanDevice#createEvent} or adopted ({@link VulkanDevice#adoptEvent}),
 * with the submission and stream of its latest {@code vkCmdSetEvent} by Quiver. A host wait waits on that
 * submission's fence instead of polling the event. An event Quiver made and never recorded counts as
 * complete, as a CUDA event does; an adopted event Quiver never recorded is whatever its status says (the
 * application may set it from the host or on the device). Thread-safe.
 */
final class EventState extends Tracked {
    final long event;
    final boolean adopted;
    private Submission setter;
    private SubmissionChain setterStream;

    EventState(long event, boolean adopted) {
        this.event = event;
        this.adopted = adopted;
    }

    /** @return true for an event Quiver made and never recorded: complete, with nothing to wait for */
    synchronized boolean countsAsComplete() {
        return setter == null && !adopted;
    }

    synchronized void recorded(Submission submission, SubmissionChain stream) {
        this.setter = submission;
        this.setterStream = stream;
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
