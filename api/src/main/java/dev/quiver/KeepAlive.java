package dev.quiver;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A reference that keeps a {@link DeviceArray}'s memory alive (see {@link DeviceArray#retain()}), for work that
 * reads it past the point where the array's owner closes it. Owned by whoever took it; it may be closed from any
 * thread; the first close lets go, later ones do nothing.
 */
public final class KeepAlive implements AutoCloseable {
    private final AtomicReference<Runnable> release;

    KeepAlive(Runnable release) {
        this.release = new AtomicReference<>(release);
    }

    /** Lets go of the array's memory; idempotent; any thread. */
    @Override
    public void close() {
        Runnable r = release.getAndSet(null);
        if (r != null) {
            r.run();
        }
    }
}
