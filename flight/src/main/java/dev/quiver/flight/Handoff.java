package dev.quiver.flight;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A worker thread that makes items one ahead of a consumer: the worker hands each item over and waits while
 * the consumer has not taken the previous one, so at most one item waits between them. Used to copy batch
 * n+1 while batch n is sent, and to receive batch n+1 while batch n is landed.
 *
 * <p><b>Ownership.</b> An item handed over belongs to the handoff until taken, then to the consumer. Items
 * still waiting when the handoff finishes are given to the release function of {@link #finish}; an item the
 * worker could not hand over (the handoff was stopped) stays the worker's, which must release it.
 *
 * <p><b>Threading.</b> {@link #take()} from one consumer thread at a time; {@link #stop()} from any thread;
 * {@link #finish} once, by the owner, after {@code stop()}.
 *
 * @param <T> the items
 */
final class Handoff<T> {
    private static final Object END = new Object();
    private static final long POLL_MILLIS = 50;

    private final BlockingQueue<Object> waiting = new ArrayBlockingQueue<>(1);
    private final Thread worker;
    private volatile boolean stopped;
    private boolean ended;

    /**
     * Starts the worker.
     *
     * @param name names the worker thread
     * @param work makes the items, handing each to {@link #offer}; when it returns the handoff ends, and what
     *             it throws is what {@link #take()} throws, after the items handed over before
     */
    Handoff(String name, Consumer<Handoff<T>> work) {
        this.worker = Thread.ofPlatform().daemon().name(name).start(() -> {
            try {
                work.accept(this);
                hand(END);
            } catch (RuntimeException | Error e) {
                hand(new Failure(e));
            }
        });
    }

    /**
     * Hands an item to the consumer, waiting while the previous one has not been taken.
     *
     * @param item the item; the consumer's once handed over
     * @return true if handed over, false if the handoff was stopped (the item is still the worker's)
     */
    boolean offer(T item) {
        return hand(item);
    }

    /** @return true once stopped: the worker should stop making items */
    boolean isStopped() {
        return stopped;
    }

    private boolean hand(Object item) {
        try {
            while (!stopped) {
                if (waiting.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Waits for the next item.
     *
     * @return the item, now the caller's, or null at the end (and from then on) or once stopped
     * @throws WorkerFailure carrying what the worker threw, once the items before it were taken
     */
    @SuppressWarnings("unchecked")
    T take() {
        if (ended) {
            return null;
        }
        try {
            while (!stopped) {
                Object item = waiting.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (item == END) {
                    ended = true;
                    return null;
                } else if (item instanceof Failure failure) {
                    ended = true;
                    throw new WorkerFailure(failure.cause());
                } else if (item != null) {
                    return (T) item;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next item", e);
        }
        return null;
    }

    /**
     * Waits for the next item, as {@link #take()}, throwing what the worker threw as it was thrown.
     *
     * @return the item, now the caller's, or null at the end or once stopped
     * @throws RuntimeException what the worker threw (an {@link Error} likewise), once the items before it were taken
     */
    T takeRethrowing() {
        try {
            return take();
        } catch (WorkerFailure failure) {
            if (failure.getCause() instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure.getCause();
        }
    }

    /** Asks the worker to stop and makes {@link #take()} return null; any thread; does not wait. */
    void stop() {
        stopped = true;
    }

    /**
     * Waits (30 s at most) for the worker to end, then releases the item still waiting, if any.
     *
     * @param release releases an item nobody took
     */
    @SuppressWarnings("unchecked")
    void finish(Consumer<? super T> release) {
        stop();
        try {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Object item;
        while ((item = waiting.poll()) != null) {
            if (item != END && !(item instanceof Failure)) {
                release.accept((T) item);
            }
        }
    }

    /** What the worker threw, as {@link #take()} reports it; the cause is the worker's exception. */
    static final class WorkerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WorkerFailure(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }

    private record Failure(Throwable cause) {
    }
}
