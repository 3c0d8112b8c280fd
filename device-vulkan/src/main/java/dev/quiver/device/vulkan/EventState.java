package dev.quiver.device.vulkan;

/**
 * A {@code VkEvent} made by {@link VulkanDevice#createEvent}, with the submission and stream of its latest
 * {@code vkCmdSetEvent}. A host wait waits on that submission's fence instead of polling the event. An
 * event never recorded counts as complete, as a CUDA event does. Thread-safe.
 */
final class EventState extends Tracked {
    final long event;
    private Submission setter;
    private Stream setterStream;

    EventState(long event) {
        this.event = event;
    }

    synchronized void recorded(Submission submission, Stream stream) {
        this.setter = submission;
        this.setterStream = stream;
    }

    /** @return the submission that sets the event, or null if it was never recorded */
    synchronized Submission setter() {
        return setter;
    }

    /** @return the stream of that submission, or null if it was never recorded */
    synchronized Stream setterStream() {
        return setterStream;
    }
}
