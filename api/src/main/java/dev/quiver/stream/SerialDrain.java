package dev.quiver.stream;

import dev.quiver.internal.abi.CallbackErrors;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs submitted actions one at a time, in submission order, never two at once and never nested inside
 * one another: an action submitted while another runs (on any thread, or from inside that action) is
 * queued and run after it. With an executor such as {@code Runnable::run} the first submitter runs the
 * queue itself (a trampoline); with a thread-starting executor the actions run there. Actions must not
 * throw; what they throw is recorded by {@link CallbackErrors}. Thread-safe and lock-free.
 */
final class SerialDrain {
    private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final Executor executor;
    private final String name;

    /**
     * @param executor where a drain runs when none is running
     * @param name     what to call failures in the record
     */
    SerialDrain(Executor executor, String name) {
        this.executor = executor;
        this.name = name;
    }

    /** Queues {@code action}; starts a drain through the executor if none is running. */
    void submit(Runnable action) {
        queue.add(action);
        if (pending.getAndIncrement() == 0) {
            try {
                executor.execute(this::drain);
            } catch (RuntimeException e) {
                CallbackErrors.record(name + " (executor refused the drain; running it here)", e);
                drain();
            }
        }
    }

    private void drain() {
        int missed = 1;
        do {
            Runnable action;
            while ((action = queue.poll()) != null) {
                try {
                    action.run();
                } catch (Throwable t) {
                    CallbackErrors.record(name, t);
                }
            }
            missed = pending.addAndGet(-missed);
        } while (missed != 0);
    }
}
