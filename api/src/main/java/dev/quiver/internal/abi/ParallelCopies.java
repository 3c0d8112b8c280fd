package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Host-to-host copies of large ranges split over several threads, for staging: one thread's {@code memcpy}
 * reaches a fraction of what the memory system delivers, and a staged transfer is only as fast as the host's
 * copy into (or out of) its staging buffer. Ranges below {@link #PARALLEL_FROM} bytes, and machines with fewer
 * than four cores, copy on the calling thread. The copier threads are daemons, made on first use, and see
 * the caller's memory through global views of the same addresses (so memory confined to the caller's thread
 * can be copied): the caller must keep both ranges valid until the call returns, which it does by waiting.
 * Any thread.
 */
public final class ParallelCopies {
    /** Ranges from this size up are split. */
    public static final long PARALLEL_FROM = 1L << 20;
    /** Threads a copy is split over at most, the caller's included. */
    static final int MAX_THREADS = 4;
    private static final int THREADS = Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors() / 2);

    private ParallelCopies() {}

    private static final class Copiers {
        static final ExecutorService POOL = Executors.newFixedThreadPool(MAX_THREADS - 1, work -> {
            Thread thread = new Thread(work, "quiver-staging-copy");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Copies {@code bytes} bytes from {@code from} at {@code fromOffset} to {@code to} at {@code toOffset}.
     *
     * @throws IndexOutOfBoundsException if a range lies outside its segment
     */
    public static void copy(MemorySegment from, long fromOffset, MemorySegment to, long toOffset, long bytes) {
        copy(from, fromOffset, to, toOffset, bytes, THREADS);
    }

    /** Copies as {@link #copy(MemorySegment, long, MemorySegment, long, long)} does, over at most {@code threads} threads. */
    static void copy(MemorySegment from, long fromOffset, MemorySegment to, long toOffset, long bytes, int threads) {
        if (bytes < PARALLEL_FROM || threads < 2 || !from.isNative() || !to.isNative()) {
            MemorySegment.copy(from, fromOffset, to, toOffset, bytes);
            return;
        }
        // bounds as the segments say, before the global views drop them
        from.asSlice(fromOffset, bytes);
        to.asSlice(toOffset, bytes);
        MemorySegment source = MemorySegment.ofAddress(from.address() + fromOffset).reinterpret(bytes);
        MemorySegment target = MemorySegment.ofAddress(to.address() + toOffset).reinterpret(bytes);
        int split = Math.min(threads, MAX_THREADS);
        long part = (bytes / split + 4095) & ~4095L;
        Future<?>[] others = new Future<?>[split - 1];
        int started = 0;
        try {
            for (int i = 1; i < split && i * part < bytes; i++) {
                long at = i * part;
                long n = Math.min(part, bytes - at);
                others[started++] = Copiers.POOL.submit(() -> MemorySegment.copy(source, at, target, at, n));
            }
            MemorySegment.copy(source, 0, target, 0, Math.min(part, bytes));
        } finally {
            for (int i = 0; i < started; i++) {
                awaitQuietly(others[i]);
            }
        }
    }

    private static void awaitQuietly(Future<?> copy) {
        boolean interrupted = false;
        while (true) {
            try {
                copy.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a staging copy failed", e.getCause());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
