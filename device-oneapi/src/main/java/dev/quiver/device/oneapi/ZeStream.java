package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.Bindings;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream: one immediate command list of a device, with a host-visible event to wait for it and the host
 * work (copies out of staging memory, freeing it) that runs when it is synchronised. Level Zero command
 * lists are not thread-safe, so every append and wait holds this stream's lock; any thread may use it.
 *
 * <p>Commands appended to a command list may overlap unless separated: every copy is followed by a barrier,
 * so copies on one stream complete in the order they were enqueued, as the SPI promises.
 */
final class ZeStream {
    private final Bindings<ZeFunction> api;
    private final MemorySegment list;
    private final MemorySegment event;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Runnable> afterSynchronize = new ArrayList<>();

    ZeStream(Bindings<ZeFunction> api, MemorySegment list, MemorySegment event) {
        this.api = api;
        this.list = list;
        this.event = event;
    }

    /** @return the {@code ze_command_list_handle_t}, the stream handle */
    MemorySegment list() {
        return list;
    }

    /** @return the event this stream waits with */
    MemorySegment event() {
        return event;
    }

    /**
     * Appends a copy and a barrier.
     *
     * @param to    USM destination
     * @param from  USM source
     * @param size  bytes
     * @param after host work to run once the stream is synchronised, or null
     */
    void copy(MemorySegment to, MemorySegment from, long size, Runnable after) {
        lock.lock();
        try {
            api.check(ZeFunction.zeCommandListAppendMemoryCopy,
                    h -> (int) h.invokeExact(list, to, from, size, MemorySegment.NULL, 0, MemorySegment.NULL));
            api.check(ZeFunction.zeCommandListAppendBarrier, h -> (int) h.invokeExact(list, MemorySegment.NULL, 0, MemorySegment.NULL));
            if (after != null) {
                afterSynchronize.add(after);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits on the host until everything appended so far is complete, then runs the pending host work. */
    void synchronize() {
        lock.lock();
        try {
            api.check(ZeFunction.zeCommandListAppendBarrier, h -> (int) h.invokeExact(list, event, 0, MemorySegment.NULL));
            api.check(ZeFunction.zeEventHostSynchronize, h -> (int) h.invokeExact(event, -1L));
            api.check(ZeFunction.zeEventHostReset, h -> (int) h.invokeExact(event));
            List<Runnable> work = List.copyOf(afterSynchronize);
            afterSynchronize.clear();
            work.forEach(Runnable::run);
        } finally {
            lock.unlock();
        }
    }

    /** Synchronises, then destroys the command list; the caller destroys the event. */
    void destroy() {
        synchronize();
        api.check(ZeFunction.zeCommandListDestroy, h -> (int) h.invokeExact(list));
    }
}
