package dev.quiver;

import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.copy.ArrayCopier;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Counters that tell whether native resources are handled correctly: arrays that were never closed,
 * failures inside callbacks from native code, and exported structs not yet released. Thread-safe; meant
 * for tests and health checks.
 *
 * <p>Leaks are reported through {@link System.Logger} ({@code dev.quiver.leaks}) when the garbage collector
 * finds an unclosed {@link DeviceArray}; with the system property {@value #LEAK_TRACKING} set to
 * {@code true}, the report includes the stack where the array was made. Quiver never frees a leaked array
 * for you: its release callback is not called.
 */
public final class Diagnostics {
    /** System property that records where each array was made, for leak reports. */
    public static final String LEAK_TRACKING = "quiver.leakTracking";

    private static final AtomicLong LEAKS = new AtomicLong();
    private static final List<BiConsumer<String, Optional<Throwable>>> LISTENERS = new CopyOnWriteArrayList<>();
    private static final System.Logger LOG = System.getLogger("dev.quiver.leaks");
    static final boolean TRACKING = Boolean.getBoolean(LEAK_TRACKING);

    private Diagnostics() {}

    /** {@return device arrays found unreachable without having been closed, since start} */
    public static long leakedArrays() {
        return LEAKS.get();
    }

    /** {@return failures caught inside release or stream callbacks called from native code, since start} */
    public static long callbackFailures() {
        return CallbackErrors.count();
    }

    /**
     * {@return bytes moved between memories by {@link Copies#toDevice} and {@link Copies#toHost}
     * since start (reads staged to the host and writes to targets), to check that copies move only
     * what they need}
     */
    public static long bytesCopied() {
        return ArrayCopier.bytesMoved();
    }

    /**
     * {@return releases waiting in stream order: buffers and arrays closed with {@code closeAfter}, and the
     * sources of uploads in flight, whose work has not completed yet (or whose release has not run yet)}
     */
    public static long pendingStreamOrderReleases() {
        return dev.quiver.internal.pool.StreamOrder.pending();
    }

    /**
     * Waits until every release waiting in stream order has run, for leak checks: a test that closes arrays
     * with {@code closeAfter} or uploads with {@link Copies#toDevice(DeviceArray, Device, DeviceStream)} calls this
     * before counting {@link #liveExports()}.
     *
     * @param timeout how long to wait at most
     * @return true if none is waiting any more, false if the timeout passed first
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    public static boolean awaitStreamOrderReleases(java.time.Duration timeout) throws InterruptedException {
        return dev.quiver.internal.pool.StreamOrder.awaitNone(timeout);
    }

    /** {@return struct nodes Quiver exported (arrays, children, schemas) whose release has not run yet} */
    public static long liveExports() {
        return ReleaseCallbacks.liveExports();
    }

    /**
     * Adds a listener told of every leaked array, for example to fail a test run. Listeners run on the
     * thread that finds the leak, one of Quiver's leak-reporting daemon threads (one for arrays, a
     * cleaner for buffers and events), so two calls may run at once: listeners must be thread-safe and must
     * not block, and what they throw is logged and ignored.
     *
     * @param listener receives the array's description and, with leak tracking on, where it was made
     */
    public static void addLeakListener(BiConsumer<String, Optional<Throwable>> listener) {
        LISTENERS.add(listener);
    }

    /**
     * Stops calling a leak listener.
     *
     * @param listener a listener added before
     */
    public static void removeLeakListener(BiConsumer<String, Optional<Throwable>> listener) {
        LISTENERS.remove(listener);
    }

    static void reportLeak(String what, Throwable allocationSite) {
        LEAKS.incrementAndGet();
        for (BiConsumer<String, Optional<Throwable>> listener : LISTENERS) {
            try {
                listener.accept(what, Optional.ofNullable(allocationSite));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "leak listener failed", e);
            }
        }
        if (allocationSite != null) {
            LOG.log(System.Logger.Level.WARNING, what + " was never closed; it was made here:", allocationSite);
        } else {
            LOG.log(System.Logger.Level.WARNING, what + " was never closed (set -D" + LEAK_TRACKING + "=true to see where it was made)");
        }
    }
}
