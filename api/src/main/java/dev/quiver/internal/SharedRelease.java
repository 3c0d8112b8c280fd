package dev.quiver.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the nodes of one exported tree share: the memory behind them, freed when the last node is
 * released. The C Data Interface lets a consumer move children out and release them after their parent,
 * so each node holds one reference. Thread-safe; the free action runs exactly once, on the thread that
 * drops the last reference.
 */
final class SharedRelease {
    private final AtomicInteger references = new AtomicInteger();
    private final Runnable free;

    SharedRelease(Runnable free) {
        this.free = free;
    }

    void retain() {
        references.incrementAndGet();
    }

    void release() {
        int left = references.decrementAndGet();
        if (left == 0) {
            free.run();
        } else if (left < 0) {
            throw new IllegalStateException("exported tree released more often than it was referenced");
        }
    }
}
