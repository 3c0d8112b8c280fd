package dev.quiver.stream;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts the calls Java threads are making into a C {@code ArrowAsyncProducer}, so that the handler's
 * {@code release} can wait for them: the producer may free its struct as soon as {@code release}
 * returns, so no call may be running then or start later. A thread that is itself inside a producer call
 * (a producer releasing the handler from inside its own {@code request}) is not waited for. Thread-safe.
 */
final class ProducerCalls {
    private static final long CLOSED = 1L << 62;

    private final AtomicLong state = new AtomicLong();
    private final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);

    /** @return true if the caller may call the producer (and must then call {@link #exit()}) */
    boolean enter() {
        while (true) {
            long s = state.get();
            if ((s & CLOSED) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                depth.get()[0]++;
                return true;
            }
        }
    }

    void exit() {
        depth.get()[0]--;
        state.decrementAndGet();
    }

    /** Refuses new calls and waits until running calls (other than the current thread's) have returned. */
    void closeAndAwait() {
        long s;
        do {
            s = state.get();
        } while ((s & CLOSED) == 0 && !state.compareAndSet(s, s | CLOSED));
        int own = depth.get()[0];
        for (int spins = 0; (state.get() & ~CLOSED) > own; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
    }
}
