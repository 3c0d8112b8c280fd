package dev.quiver.device.ffm;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Events a device made, kept for reuse: an event its owner destroys goes back here (up to {@link #CAPACITY})
 * and the next record takes it, so recording costs the vendor's record call alone, not a create and a
 * destroy. Only events this pool made come back to it; any other handle is destroyed for real. A vendor event
 * may be recorded again once nobody waits on its previous record, which holds once its owner destroyed it.
 *
 * <p>Thread-safe; takes no lock of its own beyond the queue's.
 */
public final class EventPool {
    /** The most events kept. */
    public static final int CAPACITY = 64;

    private final Supplier<MemorySegment> create;
    private final Consumer<MemorySegment> destroy;
    private final Set<Long> made = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<MemorySegment> kept = new ArrayBlockingQueue<>(CAPACITY);

    /**
     * @param create  makes a new vendor event (the caller has made whatever context current it needs)
     * @param destroy destroys a vendor event for real
     */
    public EventPool(Supplier<MemorySegment> create, Consumer<MemorySegment> destroy) {
        this.create = create;
        this.destroy = destroy;
    }

    /** @return a kept event, or a new one */
    public MemorySegment take() {
        MemorySegment event = kept.poll();
        if (event != null) {
            return event;
        }
        MemorySegment fresh = create.get();
        made.add(fresh.address());
        return fresh;
    }

    /**
     * Takes an event back from its owner: kept if this pool made it and has room, else destroyed.
     *
     * @param event an event its owner no longer uses
     */
    public void giveBack(MemorySegment event) {
        if (made.contains(event.address()) && kept.offer(event)) {
            return;
        }
        made.remove(event.address());
        destroy.accept(event);
    }

    /** Destroys every kept event. */
    public void clear() {
        MemorySegment event;
        while ((event = kept.poll()) != null) {
            made.remove(event.address());
            destroy.accept(event);
        }
    }
}
