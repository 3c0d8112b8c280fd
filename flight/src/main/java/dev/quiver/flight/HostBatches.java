package dev.quiver.flight;

import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The batches of a {@link DeviceArrayStream} on the host, one batch ahead: a thread of its own pulls batch
 * n+1 from the stream and copies it to the host (see {@link HostBatch#of}) while the caller writes batch n
 * to the network (see {@link Handoff}). At most one batch waits in between, so memory stays bounded by the
 * batch being written, the one waiting and the one being copied, however slow the reader on the other side.
 *
 * <p><b>Ownership.</b> Takes the stream: {@link #close()} closes it (stopping the thread after its current
 * batch) and every batch fetched but not taken. Batches returned by {@link #next()} belong to the caller.
 *
 * <p><b>Threading.</b> {@link #next()} from one thread at a time; {@link #stop()} from any thread;
 * {@link #close()} once, by the owner. The stream is used only by the prefetch thread.
 */
final class HostBatches implements AutoCloseable {
    private final DeviceArrayStream stream;
    private final Handoff<HostBatch> prefetch;

    /**
     * @param stream    the stream; owned by this object from now on
     * @param allocator charged for the host batches until they are closed
     * @param name      names the prefetch thread
     */
    HostBatches(DeviceArrayStream stream, BufferAllocator allocator, String name) {
        this.stream = stream;
        this.prefetch = new Handoff<>("quiver-flight-prefetch-" + name, handoff -> {
            while (!handoff.isStopped() && stream.hasNext()) {
                HostBatch batch = HostBatch.of(stream.next(), allocator);
                if (!handoff.offer(batch)) {
                    batch.close();
                }
            }
        });
    }

    /**
     * @return the next batch on the host, owned by the caller, or null at the end of the stream (or once stopped)
     * @throws RuntimeException what the stream or the copy threw, as thrown
     */
    HostBatch next() {
        return prefetch.takeRethrowing();
    }

    /**
     * Stops fetching without waiting: the prefetch thread ends after its current batch and {@link #next()}
     * returns null. Any thread; {@link #close()} must still follow.
     */
    void stop() {
        prefetch.stop();
    }

    /** Stops the prefetch, closes the stream and releases every batch not taken. */
    @Override
    public void close() {
        prefetch.stop();
        stream.close();
        prefetch.finish(HostBatch::close);
    }
}
