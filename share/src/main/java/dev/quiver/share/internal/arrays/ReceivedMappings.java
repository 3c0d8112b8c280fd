package dev.quiver.share.internal.arrays;

import dev.quiver.share.internal.posix.Memfd;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The mappings of one received batch, with the action that tells the owner the batch is released. Closing
 * unmaps them and runs the action, once, on the closing thread (the release of the array they are in).
 */
public final class ReceivedMappings implements AutoCloseable {
    private static final AtomicInteger LIVE = new AtomicInteger();
    private final List<MemorySegment> mappings;
    private final Runnable released;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Takes over mappings.
     *
     * @param mappings what {@link Memfd#mapPrivate} returned, owned by this object from now on
     * @param released runs after the unmapping; must not throw
     */
    public ReceivedMappings(List<MemorySegment> mappings, Runnable released) {
        this.mappings = List.copyOf(mappings);
        this.released = released;
        LIVE.addAndGet(this.mappings.size());
    }

    /** {@return how many mappings of received batches this process holds} */
    public static int live() {
        return LIVE.get();
    }

    /**
     * Maps one received descriptor.
     *
     * @param fd   the descriptor; the caller still closes it
     * @param size its checked size
     * @return the mapping, for a {@code ReceivedMappings} to own
     */
    public static MemorySegment map(int fd, long size) {
        return Memfd.mapPrivate(fd, size);
    }

    /** Unmaps every mapping and runs the release action; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (MemorySegment mapping : mappings) {
                Memfd.unmap(mapping);
            }
            LIVE.addAndGet(-mappings.size());
            released.run();
        }
    }
}
