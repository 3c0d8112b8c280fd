package dev.quiver;

import dev.quiver.internal.abi.IdTable;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;

/**
 * Finds device arrays that became unreachable while open. Each open array's {@link ArrayState} (a phantom
 * reference to it) is held here, so that the garbage collector enqueues it when the array becomes
 * unreachable; closing or moving the array takes it out again, after which it is collected with the array
 * and never enqueued. A daemon thread, started with the first array, reports what is enqueued while still
 * open. The table allocates nothing once warm, so watching an array costs one slot taken and given back.
 * Thread-safe.
 */
final class LeakRegistry {
    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    private static final IdTable<Watched> WATCHED = new IdTable<>();

    /** What is watched: a phantom reference on the queue that reports itself if it was left open. */
    interface Watched {
        /** Reports the referent as a leak if it was never closed nor moved; called once it is unreachable. */
        void reportIfOpen();
    }

    static {
        Thread.ofPlatform().daemon().name("quiver-leak-reports").start(LeakRegistry::report);
    }

    private LeakRegistry() {}

    /** @return the queue the states of unreachable arrays arrive on */
    static ReferenceQueue<Object> queue() {
        return QUEUE;
    }

    /** @return the id under which {@code state} is watched, for {@link #unwatch} */
    static long watch(Watched state) {
        return WATCHED.registerId(state);
    }

    /**
     * Stops watching an array. Exactly one party does so: whoever takes the array out of the open state
     * (close or move, while the array is still reachable), or the reporting thread for an array found
     * unreachable while open.
     *
     * @param id what {@link #watch} returned
     * @return true if this call stopped watching it; false if it was stopped already
     */
    static boolean unwatch(long id) {
        return WATCHED.forget(id);
    }

    private static void report() {
        while (true) {
            try {
                Reference<?> reference = QUEUE.remove();
                if (reference instanceof Watched state) {
                    state.reportIfOpen();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | Error e) {
                System.getLogger("dev.quiver.leaks").log(System.Logger.Level.WARNING, "reporting a leak failed", e);
            }
        }
    }
}
