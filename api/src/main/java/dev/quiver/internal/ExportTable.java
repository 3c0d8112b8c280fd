package dev.quiver.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maps the {@code private_data} ids of exported structs to their Java resources, so that no Java reference
 * is ever stored in native memory. Thread-safe.
 */
final class ExportTable {
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<Long, SharedRelease> LIVE = new ConcurrentHashMap<>();

    static long register(SharedRelease owner) {
        long id = NEXT.getAndIncrement();
        owner.retain();
        LIVE.put(id, owner);
        return id;
    }

    /** @return the owner of {@code id}, removed; null if it was already released or never existed */
    static SharedRelease remove(long id) {
        return LIVE.remove(id);
    }

    static int liveCount() {
        return LIVE.size();
    }

    private ExportTable() {}
}
