package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the nodes of one exported tree share: the memory behind them, freed when the last node is
 * released. The C Data Interface lets a consumer move children out and release them after their parent,
 * so each node holds one reference; all nodes carry the tree's one id in {@code private_data}. Thread-safe;
 * the free action runs exactly once, on the thread that drops the last reference, after the tree left the
 * export table.
 */
final class SharedRelease {
    private final AtomicInteger references = new AtomicInteger();
    private final Runnable free;

    private final MemorySegment id;

    /** Registers a new tree in the export table. */
    SharedRelease(Runnable free) {
        this.free = free;
        this.id = MemorySegment.ofAddress(ExportTable.register(this));
    }

    /** @return the tree's id, as stored in every node's {@code private_data} */
    MemorySegment id() {
        return id;
    }

    /** Counts {@code nodes} more nodes holding the tree; called once, after the tree is written. */
    void retain(int nodes) {
        references.addAndGet(nodes);
        ExportTable.nodesRetained(nodes);
    }

    /**
     * @param nodes how many nodes were released
     * @return true if this dropped the last reference (the caller then forgets the tree and frees it)
     */
    boolean release(int nodes) {
        ExportTable.nodesReleased(nodes);
        int left = references.addAndGet(-nodes);
        if (left < 0) {
            throw new IllegalStateException("exported tree released more often than it was referenced");
        }
        return left == 0;
    }

    void free() {
        free.run();
    }
}
