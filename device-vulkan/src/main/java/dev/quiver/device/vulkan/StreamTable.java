package dev.quiver.device.vulkan;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams of a {@link VulkanDevice}: its default stream, handle {@link MemorySegment#NULL}, and the
 * streams it made, each a {@link SubmissionChain} on the device's one queue, by an id that is the handle's
 * address (not a Vulkan handle). It owns every chain until {@link #destroy} or {@link #destroyAll}; the
 * table is shared with {@link StreamAndEventAdoption}, which enters and drops the streams made from the
 * {@code VkQueue}.
 *
 * <p>Thread-safe: the table is concurrent, ids are unique, and a stream leaves it exactly once.
 * {@link #destroyAll} is for a device's close, after all other use has ended.
 */
final class StreamTable {
    private final DeviceContext context;
    private final String owner;
    private final SubmissionChain defaultStream;
    private final Map<Long, SubmissionChain> streams = new ConcurrentHashMap<>();
    private final AtomicLong nextStream = new AtomicLong(1);

    /**
     * @param context the device's queue and pools
     * @param owner   the device, as messages name it
     */
    StreamTable(DeviceContext context, String owner) {
        this.context = context;
        this.owner = owner;
        this.defaultStream = new SubmissionChain(context);
    }

    /** @return the table of streams by id, without the default stream */
    Map<Long, SubmissionChain> table() {
        return streams;
    }

    /** @return a new stream's handle */
    MemorySegment create() {
        long id = nextStream.getAndIncrement();
        streams.put(id, new SubmissionChain(context));
        return MemorySegment.ofAddress(id);
    }

    /** @return the live stream of the handle; NULL is the default stream */
    SubmissionChain get(MemorySegment handle) {
        if (handle.equals(MemorySegment.NULL)) {
            return defaultStream;
        }
        SubmissionChain stream = streams.get(handle.address());
        if (stream == null) {
            throw new IllegalArgumentException("not a live stream of " + owner + ": 0x" + Long.toHexString(handle.address()));
        }
        return stream;
    }

    /** Waits for the stream's work and destroys it; the default stream cannot be destroyed. */
    void destroy(MemorySegment stream) {
        SubmissionChain removed = stream.equals(MemorySegment.NULL) ? null : streams.remove(stream.address());
        if (removed == null) {
            throw new IllegalArgumentException("not a stream created by " + owner + ": 0x" + Long.toHexString(stream.address()));
        }
        removed.destroy();
    }

    /** Destroys every stream, the default one included. */
    void destroyAll() {
        defaultStream.destroy();
        streams.values().forEach(SubmissionChain::destroy);
        streams.clear();
    }
}
