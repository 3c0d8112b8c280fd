package dev.quiver.device.oneapi;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How an application lets Quiver honour the {@code sync_event} of an imported {@code ARROW_DEVICE_ONEAPI}
 * array. The Arrow C Device interface makes that field a {@code sycl::event*}: a C++ SYCL object that Level
 * Zero, which this backend is built on, can neither create nor wait on. So before waiting on such an event
 * (for example through {@code Copies.toHost(DeviceArray)} or {@code SyncEvent.waitOnHost()}), the application,
 * which has SYCL, registers a waiter for the pointer, typically calling {@code event.wait()} through its own
 * native code. Waiting on an event with no waiter fails with an exception that says so; nothing waits
 * silently or skips the wait.
 *
 * {@snippet class=dev.quiver.device.oneapi.snippets.OneApiSnippets region=register}
 *
 * <p>The registry is process-wide, keyed by the {@code sycl::event*} address, and thread-safe; waiters are
 * called on the thread that honours the event.
 */
public final class SyclEventWaiters {
    private static final ConcurrentHashMap<Long, Waiter> WAITERS = new ConcurrentHashMap<>();

    private SyclEventWaiters() {}

    /** Waits on one {@code sycl::event}, usually through the application's own SYCL code. */
    public interface Waiter {
        /** Blocks until the event completes ({@code sycl::event::wait()}). */
        void await();

        /**
         * {@return whether the event has completed, without blocking
         * ({@code info::event::command_execution_status == complete})}
         */
        boolean isComplete();
    }

    /** A registration; closing it removes the waiter. */
    public interface Registration extends AutoCloseable {
        /** Removes the waiter; idempotent. */
        @Override
        void close();
    }

    /**
     * {@return the registration, to close once the array is released}
     * @param syclEvent the {@code sync_event} value of an array: the {@code sycl::event*}
     * @param waiter    how to wait on it
     * @throws IllegalStateException if a waiter is already registered for that pointer
     */
    public static Registration register(MemorySegment syclEvent, Waiter waiter) {
        Objects.requireNonNull(waiter);
        long address = syclEvent.address();
        if (address == 0) {
            throw new IllegalArgumentException("sycl::event* is NULL");
        }
        if (WAITERS.putIfAbsent(address, waiter) != null) {
            throw new IllegalStateException("a waiter is already registered for sycl::event* 0x" + Long.toHexString(address));
        }
        return () -> WAITERS.remove(address, waiter);
    }

    /**
     * @param syclEvent a {@code sycl::event*}
     * @return its waiter
     * @throws UnsupportedOperationException if none is registered, saying why Level Zero cannot wait itself
     */
    static Waiter waiterFor(MemorySegment syclEvent) {
        Waiter waiter = WAITERS.get(syclEvent.address());
        if (waiter == null) {
            throw new UnsupportedOperationException("the ONEAPI sync_event 0x" + Long.toHexString(syclEvent.address())
                    + " is a sycl::event*, which Level Zero cannot wait on; register a waiter for it with "
                    + SyclEventWaiters.class.getName() + ".register before honouring the array's event");
        }
        return waiter;
    }
}
