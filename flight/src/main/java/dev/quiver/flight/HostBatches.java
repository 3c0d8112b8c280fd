package dev.quiver.flight;

import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The batches of a {@link DeviceArrayStream} on the host, one batch ahead: a thread of its own pulls batch
 * n+1 from the stream and copies it to the host (see {@link HostBatch#of}) while the caller writes batch n
 * to the network. At most one batch waits in between, so memory stays bounded by the batch being written,
 * the one waiting and the one being copied, however slow the reader on the other side.
 *
 * <p><b>Ownership.</b> Takes the stream: {@link #close()} closes it (stopping the thread after its current
 * batch) and every batch fetched but not taken. Batches returned by {@link #next()} belong to the caller.
 *
 * <p><b>Threading.</b> {@link #next()} from one thread at a time; {@link #close()} from any thread, also
 * while {@code next()} waits (which then returns null). The stream is used only by the prefetch thread.
 */
final class HostBatches implements AutoCloseable {
    private static final Object END = new Object();
    private static final long POLL_MILLIS = 50;

    private final DeviceArrayStream stream;
    private final BufferAllocator allocator;
    private final BlockingQueue<Object> ahead = new ArrayBlockingQueue<>(1);
    private final Thread prefetch;
    private volatile boolean closed;
    private boolean ended;

    /**
     * @param stream    the stream; owned by this object from now on
     * @param allocator charged for the host batches until they are closed
     * @param name      names the prefetch thread
     */
    HostBatches(DeviceArrayStream stream, BufferAllocator allocator, String name) {
        this.stream = stream;
        this.allocator = allocator;
        this.prefetch = Thread.ofPlatform().daemon().name("quiver-flight-prefetch-" + name).start(this::run);
    }

    private void run() {
        try {
            while (!closed && stream.hasNext()) {
                HostBatch batch = HostBatch.of(stream.next(), allocator);
                if (!hand(batch)) {
                    batch.close();
                    return;
                }
            }
            hand(END);
        } catch (RuntimeException | Error e) {
            hand(e);
        }
    }

    /** Waits for room ahead of the reader; false once closed. */
    private boolean hand(Object item) {
        try {
            while (!closed) {
                if (ahead.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * @return the next batch on the host, owned by the caller, or null at the end of the stream (or once closed)
     * @throws RuntimeException what the stream or the copy threw, as thrown
     */
    HostBatch next() {
        if (ended) {
            return null;
        }
        try {
            while (!closed) {
                Object item = ahead.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (item == END) {
                    ended = true;
                    return null;
                } else if (item instanceof RuntimeException e) {
                    ended = true;
                    throw e;
                } else if (item instanceof Error e) {
                    ended = true;
                    throw e;
                } else if (item != null) {
                    return (HostBatch) item;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next batch", e);
        }
        return null;
    }

    /**
     * Stops fetching without waiting: the prefetch thread ends after its current batch and {@link #next()}
     * returns null. Any thread; {@link #close()} must still follow.
     */
    void stop() {
        closed = true;
    }

    /** Stops the prefetch, closes the stream and releases every batch not taken; idempotent, any thread. */
    @Override
    public void close() {
        closed = true;
        stream.close();
        try {
            prefetch.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Object item;
        while ((item = ahead.poll()) != null) {
            if (item instanceof HostBatch batch) {
                batch.close();
            }
        }
    }
}
