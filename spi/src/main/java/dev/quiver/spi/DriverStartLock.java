package dev.quiver.spi;

import java.util.function.Supplier;

/**
 * One lock for the process, held while a backend starts a driver whose first use changes process-wide
 * state that another backend's driver shares without guarding it. PoCL (OpenCL) and Mesa's lavapipe
 * (Vulkan) run on the same libLLVM and both register its targets and options on first use, PoCL when it
 * creates a context and lavapipe when it enumerates physical devices; LLVM does not make that thread-safe.
 * {@code Devices} probes providers side by side, so Quiver's OpenCL and Vulkan backends make those calls
 * under this lock; a plugin whose driver shares such state may do the same. Reentrant; thread-safe.
 */
public final class DriverStartLock {
    private static final Object LOCK = new Object();

    private DriverStartLock() {}

    /**
     * Runs a driver's start-up calls while no other driver starts.
     *
     * @param start the calls that start the driver
     * @param <T>   what they return
     * @return what {@code start} returned
     */
    public static <T> T holding(Supplier<T> start) {
        synchronized (LOCK) {
            return start.get();
        }
    }
}
