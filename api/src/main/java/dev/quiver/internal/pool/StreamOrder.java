package dev.quiver.internal.pool;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs actions in stream order: once the work enqueued on a stream before a {@link Point} completes. A point
 * is an event recorded on the stream; one waiting thread per device (started on demand, gone after a second
 * idle) waits on the points in the order they were made and runs their actions, so no action runs on the
 * thread that asked for it and none blocks it. A device without events gives points that are already
 * reached: its stream is synchronised when the point is made.
 *
 * <p><b>Threading.</b> Any thread may make points and add actions. Actions run on the device's waiting thread
 * (or at once, on the caller's thread, for a device without events) and must not throw; what they throw is
 * logged.
 */
public final class StreamOrder {
    private static final System.Logger LOG = System.getLogger(StreamOrder.class.getName());
    /** Actions added and not yet run, over every device. */
    private static final java.util.concurrent.atomic.AtomicLong PENDING = new java.util.concurrent.atomic.AtomicLong();
    private static final Object IDLE = new Object();

    private final BackendDevice backend;
    private final ThreadPoolExecutor waiter;

    /**
     * @param backend the device, as the API calls it (its checked view)
     * @param label   how thread names call the device
     */
    public StreamOrder(BackendDevice backend, String label) {
        this.backend = Objects.requireNonNull(backend);
        this.waiter = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), work -> {
            Thread thread = new Thread(work, "quiver-stream-order " + label);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Marks the work enqueued on {@code stream} so far.
     *
     * @param stream a stream of this device
     * @return the point, which takes exactly one action
     */
    public Point mark(MemorySegment stream) {
        DeviceEvents events = backend.capability(DeviceEvents.class).orElse(null);
        if (events == null) {
            backend.synchronizeStream(stream);
            return new Point(MemorySegment.NULL);
        }
        return new Point(events.recordNewEvent(stream));
    }

    /** @return actions added and not yet run, over every device */
    public static long pending() {
        return PENDING.get();
    }

    /**
     * Waits until no action is pending on any device.
     *
     * @param timeout how long to wait at most
     * @return true if none is pending
     * @throws InterruptedException if interrupted while waiting
     */
    public static boolean awaitNone(java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (IDLE) {
            while (PENDING.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(IDLE, left);
            }
        }
        return true;
    }

    /** Waits until every action added so far has run; for tests and orderly shutdown. */
    public void drain() {
        try {
            waiter.submit(() -> { }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** A place in a stream's order: an event of its own, or none where the stream was synchronised. */
    public final class Point {
        private final MemorySegment event;
        private boolean used;

        private Point(MemorySegment event) {
            this.event = event;
        }

        /**
         * Runs {@code action} once the work before this point completes, and lets go of the point's event.
         *
         * @param action what to run; must not throw
         * @throws IllegalStateException if this point already has its action
         */
        public void then(Runnable action) {
            if (used) {
                throw new IllegalStateException("a stream-order point takes one action");
            }
            used = true;
            PENDING.incrementAndGet();
            if (event.equals(MemorySegment.NULL)) {
                run(action);
                return;
            }
            waiter.execute(() -> {
                DeviceEvents events = backend.capability(DeviceEvents.class).orElseThrow();
                try {
                    events.waitEvent(event);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "waiting for a stream-order point failed; running its action anyway", e);
                } finally {
                    try {
                        events.destroyEvent(event);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "destroying a stream-order event failed", e);
                    }
                }
                run(action);
            });
        }
    }

    private static void run(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "an action run in stream order failed", e);
        } finally {
            if (PENDING.decrementAndGet() == 0) {
                synchronized (IDLE) {
                    IDLE.notifyAll();
                }
            }
        }
    }
}
