package dev.quiver.spi;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The process's lock on starting drivers and loading native libraries, for two hazards that backends
 * probed side by side would otherwise meet.
 *
 * <ul>
 *   <li><b>Drivers that share unguarded state.</b> PoCL (OpenCL) and Mesa's lavapipe (Vulkan) run on the
 *       same libLLVM and both register its targets and options on first use, PoCL when it creates a context
 *       and lavapipe when it enumerates physical devices; LLVM does not make that thread-safe. Those calls
 *       run in {@link #holding}, alone.</li>
 *   <li><b>Library loading that walks the loaded libraries.</b> LWJGL 3.4.3 finds a library's path by
 *       calling {@code dlopen} inside a {@code dl_iterate_phdr} callback, which takes glibc's two loader
 *       locks in the opposite order to {@code dlopen}: it deadlocks against any other thread that loads a
 *       library at that moment (a driver's first call often does). LWJGL's loading runs in {@link #holding}
 *       too, and every call of Quiver's that may load a library (opening a vendor library, a driver's first
 *       enumeration or initialisation) runs in {@link #loading}, which any number of threads may hold at once
 *       but never beside {@link #holding}.</li>
 * </ul>
 *
 * <p>A plugin whose driver shares such state, or that loads libraries, may do the same. Both are
 * reentrant, and {@link #loading} may be entered inside {@link #holding}; entering {@link #holding} inside
 * {@link #loading} would wait forever and is refused. Thread-safe.
 */
public final class DriverStartLock {
    private static final ReentrantReadWriteLock LOCK = new ReentrantReadWriteLock();

    private DriverStartLock() {}

    /**
     * Runs a driver's start-up calls, or a library load that walks the loaded libraries, while no other
     * driver starts and no library loads.
     *
     * @param start the calls that start the driver
     * @param <T>   what they return
     * @return what {@code start} returned
     * @throws IllegalStateException if the calling thread is inside {@link #loading}
     */
    public static <T> T holding(Supplier<T> start) {
        if (LOCK.getReadHoldCount() > 0 && !LOCK.isWriteLockedByCurrentThread()) {
            throw new IllegalStateException("DriverStartLock.holding inside DriverStartLock.loading would wait forever");
        }
        LOCK.writeLock().lock();
        try {
            return start.get();
        } finally {
            LOCK.writeLock().unlock();
        }
    }

    /**
     * Runs calls that may load native libraries ({@code dlopen}): beside other such calls, but never while
     * a driver starts in {@link #holding}.
     *
     * @param load the calls
     * @param <T>  what they return
     * @return what {@code load} returned
     */
    public static <T> T loading(Supplier<T> load) {
        LOCK.readLock().lock();
        try {
            return load.get();
        } finally {
            LOCK.readLock().unlock();
        }
    }
}
