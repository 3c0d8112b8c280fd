package dev.quiver;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The lifecycle of a resource a caller owns ({@link DeviceBuffer}, {@link SyncEvent}): open until closed,
 * which runs its release once, or moved into an array, which then runs the release on its own. An owner that
 * becomes unreachable while open is reported as a leak (never released: the Cleaner only reports).
 * Thread-safe: exactly one of close and move wins.
 */
final class Ownership {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int OPEN = 0;
    private static final int CLOSED = 1;
    private static final int MOVED = 2;

    private final State state;
    private final Cleaner.Cleanable cleanable;

    /** What the Cleaner sees: never the owner itself. */
    private static final class State implements Runnable {
        final AtomicInteger value = new AtomicInteger(OPEN);
        final Runnable release;
        final Supplier<String> description;
        final Throwable allocationSite;

        State(Runnable release, Supplier<String> description, String kind) {
            this.release = release;
            this.description = description;
            this.allocationSite = Diagnostics.TRACKING ? new Throwable(kind + " made here") : null;
        }

        @Override
        public void run() {
            if (value.get() == OPEN) {
                Diagnostics.reportLeak(description.get(), allocationSite);
            }
        }
    }

    /**
     * @param owner       the object whose unreachability means a leak
     * @param release     what closing runs, once
     * @param description names the resource in messages
     * @param kind        the owner's class name, for the allocation site
     */
    Ownership(Object owner, Runnable release, String description, String kind) {
        this(owner, release, () -> description, kind);
    }

    /**
     * As {@link #Ownership(Object, Runnable, String, String)}, with the description made only when a message
     * needs it (it must not refer to {@code owner}, which the cleaner watches).
     *
     * @param owner       the object whose unreachability counts as a leak
     * @param release     frees the resource, run at most once
     * @param description makes the name of the resource in messages
     * @param kind        the kind of resource, for leak reports
     */
    Ownership(Object owner, Runnable release, Supplier<String> description, String kind) {
        this.state = new State(release, description, kind);
        this.cleanable = CLEANER.register(owner, state);
    }

    /** @return true until closed or moved */
    boolean isOpen() {
        return state.value.get() == OPEN;
    }

    /** Runs the release if still open; later calls do nothing. */
    void close() {
        if (state.value.compareAndSet(OPEN, CLOSED)) {
            cleanable.clean();
            state.release.run();
        }
    }

    /**
     * @return the release, which the caller now runs exactly once; the resource is spent
     * @throws IllegalStateException if it is closed or moved already
     */
    Runnable moveOut() {
        if (!state.value.compareAndSet(OPEN, MOVED)) {
            throw new IllegalStateException(state.description.get() + " is " + stateName());
        }
        cleanable.clean();
        return state.release;
    }

    /**
     * Closes without running the release: the caller runs it, exactly once, later (a release in stream order).
     *
     * @return the release, or null if this was closed or moved already (a close after a close does nothing)
     */
    Runnable closeDeferred() {
        if (!state.value.compareAndSet(OPEN, CLOSED)) {
            return null;
        }
        cleanable.clean();
        return state.release;
    }

    /** @throws IllegalStateException if closed or moved */
    void checkOpen() {
        if (!isOpen()) {
            throw new IllegalStateException(state.description.get() + " is " + stateName());
        }
    }

    /** @return "open", "closed" or "moved into an array" */
    String stateName() {
        return switch (state.value.get()) {
            case OPEN -> "open";
            case MOVED -> "moved into an array";
            default -> "closed";
        };
    }

    /** @return the description given at creation */
    String description() {
        return state.description.get();
    }
}
