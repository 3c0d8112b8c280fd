package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.host.HostDevice;

/**
 * The host as the API copies to it: the process's one {@link HostDevice}, the same device the CPU backend
 * serves, whatever backends are selected. It gets JDK memory ({@link ArenaHostHeap}) unless the CPU backend
 * installed the C library's. Thread-safe; the device lives as long as the process.
 */
public final class HostMemory {
    private HostMemory() {}

    private static final class Host {
        static final HostDevice DEVICE = withHeap();
        static final CheckedBackendDevice CHECKED = CheckedBackendDevice.of(DEVICE);

        private static HostDevice withHeap() {
            HostDevice device = HostDevice.instance();
            device.useHeapIfNone(new ArenaHostHeap());
            return device;
        }
    }

    /**
     * @return the host device behind the common argument checks: what {@link dev.quiver.Copies#toHost}
     *         copies into and what the API reads CPU memory through
     */
    public static BackendDevice device() {
        return Host.CHECKED;
    }

    /**
     * @return the host device itself, with a heap, for code that moves bytes it has already checked
     */
    public static HostDevice unchecked() {
        return Host.DEVICE;
    }
}
