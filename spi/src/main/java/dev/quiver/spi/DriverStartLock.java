package dev.quiver.spi;

import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The process's locks on starting drivers and loading native libraries, for two hazards that backends
 * probed side by side would otherwise meet.
 *
 * <ul>
 *   <li><b>Drivers that share unguarded state.</b> PoCL (OpenCL) and Mesa's lavapipe (Vulkan) run on the
 *       same libLLVM and both register its targets and options on first use, PoCL when it creates a context
 *       and lavapipe when it enumerates physical devices; LLVM does not make that thread-safe. Those calls
 *       run in {@link #holding}: one driver start at a time, while libraries may load beside it (a driver's
 *       start loads its own plugins).</li>
 *   <li><b>Library loading that walks the loaded libraries.</b> LWJGL 3.4.3 finds a library's path by
 *       calling {@code dlopen} inside a {@code dl_iterate_phdr} callback, which takes glibc's two loader
 *       locks in the opposite order to {@code dlopen}: it deadlocks against any other thread that loads a
 *       library at that moment (a driver's first call often does). It does so only for a library it loads
 *       by name from the system paths, so Quiver's Vulkan backend hands it the loader's absolute path; such
 *       loading still runs in {@link #alone}, and every call of Quiver's that may load a library (opening a
 *       vendor library, a driver's first enumeration or initialisation, a driver start) runs in
 *       {@link #loading} or {@link #holding}, which any number of threads may be in at once but never beside
 *       {@link #alone}.</li>
 * </ul>
 *
 * <p>A plugin whose driver shares such state, or that loads libraries, may do the same. All three are
 * reentrant; {@link #loading} and {@link #holding} may be entered inside each other and inside
 * {@link #alone}. Entering {@link #alone} inside {@link #loading} or {@link #holding} would wait forever
 * and is refused. Thread-safe.
 */
public final class DriverStartLock {
    /** Shared by every call that may load a library, held alone by a load that walks the loaded ones. */
    private static final ReentrantReadWriteLock LOADER = new ReentrantReadWriteLock();
    /** Held by one driver start at a time. */
    private static final ReentrantLock DRIVERS = new ReentrantLock();

    private DriverStartLock() {}

    /**
     * Runs a driver's start-up calls while no other driver starts and nothing runs in {@link #alone};
     * libraries may load on other threads meanwhile.
     *
     * @param start the calls that start the driver
     * @param <T>   what they return
     * @return what {@code start} returned
     */
    public static <T> T holding(Supplier<T> start) {
        LOADER.readLock().lock();
        try {
            DRIVERS.lock();
            try {
                return start.get();
            } finally {
                DRIVERS.unlock();
            }
        } finally {
            LOADER.readLock().unlock();
        }
    }

    /**
     * Runs calls that may load native libraries ({@code dlopen}): beside other such calls and beside a
     * driver start, but never while something runs in {@link #alone}.
     *
     * @param load the calls
     * @param <T>  what they return
     * @return what {@code load} returned
     */
    public static <T> T loading(Supplier<T> load) {
        LOADER.readLock().lock();
        try {
            return load.get();
        } finally {
            LOADER.readLock().unlock();
        }
    }

    /**
     * Runs a library load that walks the loaded libraries (LWJGL's) while no other thread loads a library
     * or starts a driver.
     *
     * @param load the calls
     * @param <T>  what they return
     * @return what {@code load} returned
     * @throws IllegalStateException if the calling thread is inside {@link #loading} or {@link #holding}
     */
    public static <T> T alone(Supplier<T> load) {
        if (LOADER.getReadHoldCount() > 0 && !LOADER.isWriteLockedByCurrentThread()) {
            throw new IllegalStateException("DriverStartLock.alone inside DriverStartLock.loading or holding would wait forever");
        }
        LOADER.writeLock().lock();
        try {
            return load.get();
        } finally {
            LOADER.writeLock().unlock();
        }
    }
}
