package dev.quiver.stream;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets one call at a time into a stream that the specification says is not thread-safe, and turns a
 * second, concurrent call into a clear refusal instead of a crash. A close requested while a call runs is
 * deferred until that call leaves. Lock-free; thread-safe.
 *
 * <p>Calls are serialized, not confined: successive calls may come from different threads. What a caller
 * writes between {@link #enter()} and {@link #exit()} is visible to the next caller that enters, and to the
 * thread that releases the stream once {@link #exit()} or {@link #close()} returns true: the compare-and-set
 * on the gate's state orders each of them after the last. So a stream's per-call fields need no ordering of
 * their own.
 */
final class CallGate {
    /** What {@link #enter()} found. */
    enum Entry { ENTERED, BUSY, CLOSED }

    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSING = 2;
    private static final int CLOSED = 3;

    private final AtomicInteger state = new AtomicInteger(IDLE);
    /**
     * For messages only: written and read without ordering (a reference never tears), so a reader may see a
     * stale thread or none.
     */
    private Thread holder;

    /** @return ENTERED if the caller may go on (and must call {@link #exit()}), else why not */
    Entry enter() {
        while (true) {
            int s = state.get();
            if (s != IDLE) {
                return s == BUSY ? Entry.BUSY : Entry.CLOSED;
            }
            if (state.compareAndSet(IDLE, BUSY)) {
                holder = Thread.currentThread();
                return Entry.ENTERED;
            }
        }
    }

    /** @return true if a close was requested during the call: the caller must now release the stream */
    boolean exit() {
        holder = null;
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
        return holder;
    }
}
