package dev.quiver.stream;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets one call at a time into a stream that the specification says is not thread-safe, and turns a
 * second, concurrent call into a clear refusal instead of a crash. A close requested while a call runs is
 * deferred until that call leaves. Lock-free; thread-safe.
 */
final class CallGate {
    /** What {@link #enter()} found. */
    enum Entry { ENTERED, BUSY, CLOSED }

    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSING = 2;
    private static final int CLOSED = 3;

    private static final VarHandle HOLDER;

    static {
        try {
            HOLDER = MethodHandles.lookup().findVarHandle(CallGate.class, "holder", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicInteger state = new AtomicInteger(IDLE);
    /** For messages only: written and read without ordering, so a reader may see a stale thread or none. */
    @SuppressWarnings("unused") // through HOLDER
    private Thread holder;

    /** @return ENTERED if the caller may go on (and must call {@link #exit()}), else why not */
    Entry enter() {
        while (true) {
            int s = state.get();
            if (s != IDLE) {
                return s == BUSY ? Entry.BUSY : Entry.CLOSED;
            }
            if (state.compareAndSet(IDLE, BUSY)) {
                HOLDER.setOpaque(this, Thread.currentThread());
                return Entry.ENTERED;
            }
        }
    }

    /** @return true if a close was requested during the call: the caller must now release the stream */
    boolean exit() {
        HOLDER.setOpaque(this, null);
        if (state.compareAndSet(BUSY, IDLE)) {
            return false;
        }
        state.set(CLOSED);
        return true;
    }

    /**
     * Requests a close.
     *
     * @return true if the caller must release the stream now; false if it was closed already or a call
     *         is running (whose {@link #exit()} then returns true)
     */
    boolean close() {
        while (true) {
            int s = state.get();
            if (s == IDLE && state.compareAndSet(IDLE, CLOSED)) {
                return true;
            }
            if (s == BUSY && state.compareAndSet(BUSY, CLOSING)) {
                return false;
            }
            if (s == CLOSING || s == CLOSED) {
                return false;
            }
        }
    }

    /** @return true once a close was requested */
    boolean isClosed() {
        int s = state.get();
        return s == CLOSING || s == CLOSED;
    }

    /** @return the thread inside the gate, or null */
    Thread holder() {
        return (Thread) HOLDER.getOpaque(this);
    }
}
