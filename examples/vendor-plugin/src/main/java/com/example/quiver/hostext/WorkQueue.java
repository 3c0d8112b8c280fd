package com.example.quiver.hostext;

import dev.quiver.spi.DeviceException;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One stream of the device: tasks run in order on one daemon worker thread. Counts the tasks it was given
 * and those it finished, which is what events compare. Thread-safe.
 *
 * <p>A task that touches host memory the worker may not access (a segment confined to the caller's
 * thread) runs on the caller instead, while the worker waits at that task's place in the queue: same
 * order, same counts, no wrong-thread access.
 */
final class WorkQueue {
    private static final Runnable STOP = () -> { };

    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Thread worker;
    private long enqueued;
    private long finished;
    private RuntimeException failure;

    WorkQueue(String name) {
        worker = Thread.ofPlatform().name(name).daemon().unstarted(this::work);
        worker.start();
    }

    /**
     * Runs {@code task} after the tasks given before it, and before those given after it.
     *
     * @param task the work
     * @param host the caller's host memory the task touches
     */
    void enqueue(Runnable task, MemorySegment host) {
        if (host.isAccessibleBy(worker)) {
            enqueue(task);
            return;
        }
        // The worker holds the stream at this task's place while the caller runs it.
        CompletableFuture<Void> turn = new CompletableFuture<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        enqueue(() -> {
            turn.complete(null);
            done.join();
        });
        turn.join();
        try {
            task.run();
        } finally {
            done.complete(null);
        }
    }

    /** Runs {@code task} on the worker after the tasks given before it. */
    synchronized void enqueue(Runnable task) {
        enqueued++;
        tasks.add(task);
    }

    /** @return the number of tasks given so far */
    synchronized long enqueued() {
        return enqueued;
    }

    /** @return true once {@code count} tasks have finished */
    synchronized boolean reached(long count) {
        return finished >= count;
    }

    /** Blocks until {@code count} tasks have finished; throws if a task failed. */
    void awaitReached(long count) {
        synchronized (this) {
            boolean interrupted = false;
            while (finished < count) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        rethrow();
    }

    /** Blocks until every task given so far has finished. */
    void drain() {
        awaitReached(enqueued());
    }

    /** Finishes the pending tasks and stops the worker. */
    void close() {
        drain();
        tasks.add(STOP);
    }

    private void work() {
        while (true) {
            Runnable task;
            try {
                task = tasks.take();
            } catch (InterruptedException e) {
                continue;
            }
            if (task == STOP) {
                return;
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                synchronized (this) {
                    failure = failure == null ? e : failure;
                }
            } finally {
                finish();
            }
        }
    }

    private synchronized void finish() {
        finished++;
        notifyAll();
    }

    private void rethrow() {
        RuntimeException e;
        synchronized (this) {
            e = failure;
            failure = null;
        }
        if (e != null) {
            throw new DeviceException("hostext: a task on the stream failed: " + e.getMessage(), e);
        }
    }
}
