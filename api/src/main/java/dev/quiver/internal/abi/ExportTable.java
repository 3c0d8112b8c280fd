package dev.quiver.internal.abi;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maps the {@code private_data} ids of exported trees to their Java resources, so that no Java reference
 * is ever stored in native memory. One entry per tree. Thread-safe.
 */
final class ExportTable {
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<Long, SharedRelease> LIVE = new ConcurrentHashMap<>();

    /** @return a new id naming {@code owner} until {@link #remove} */
    static long register(SharedRelease owner) {
        long id = NEXT.getAndIncrement();
        LIVE.put(id, owner);
        return id;
    }

    /** @return the owner of {@code id}; null if it was released or never existed */
    static SharedRelease get(long id) {
        return LIVE.get(id);
    }

    static void remove(long id) {
        LIVE.remove(id);
    }

    private static final AtomicLong LIVE_NODES = new AtomicLong();

    static void nodesRetained(int nodes) {
        LIVE_NODES.addAndGet(nodes);
    }

    static void nodesReleased(int nodes) {
        LIVE_NODES.addAndGet(-nodes);
    }

    /** @return exported struct nodes whose release has not run yet */
    static long liveNodes() {
        return LIVE_NODES.get();
    }

    private ExportTable() {}
}
