package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maps the {@code private_data} ids of exported trees to their Java resources, so that no Java reference
 * is ever stored in native memory. One entry per tree. Thread-safe.
 */
final class ExportTable {
    private static final IdTable<SharedRelease> LIVE = new IdTable<>();

    /** @return a new id naming {@code owner} until {@link #remove} */
    static long register(SharedRelease owner) {
        return LIVE.register(owner).address();
    }

    /** @return the owner of {@code id}; null if it was released or never existed */
    static SharedRelease get(long id) {
        return LIVE.get(MemorySegment.ofAddress(id));
    }

    static void remove(long id) {
        LIVE.remove(MemorySegment.ofAddress(id));
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
