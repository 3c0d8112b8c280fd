package dev.quiver.internal.abi;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Records failures inside upcalls, which must never throw into native code. Thread-safe.
 */
public final class CallbackErrors {
    private static final System.Logger LOG = System.getLogger("dev.quiver.callbacks");
    private static final AtomicLong COUNT = new AtomicLong();

    /**
     * @param callback which callback failed, for example {@code ArrowArray.release}
     * @param failure  what it threw
     */
    public static void record(String callback, Throwable failure) {
        COUNT.incrementAndGet();
        LOG.log(System.Logger.Level.ERROR, "failure inside " + callback + " (returned to native caller normally)", failure);
    }

    /** @return failures recorded since start */
    public static long count() {
        return COUNT.get();
    }

    private CallbackErrors() {}
}
