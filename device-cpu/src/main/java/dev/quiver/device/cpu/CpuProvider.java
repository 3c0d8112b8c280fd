package dev.quiver.device.cpu;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.spi.host.HostDevice;

import java.util.List;

/**
 * Serves {@code ARROW_DEVICE_CPU} with one device, id -1: the process's {@link HostDevice}, the same one the
 * API copies to the host with, after making the C library its heap. Stateless; thread-safe.
 */
public final class CpuProvider implements DeviceProvider {

    /** Does nothing native. */
    public CpuProvider() {}

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.CPU};
    }

    @Override
    public ProbeResult probe() {
        try {
            HostDevice host = HostDevice.instance();
            host.useHeap(CLibraryHeap.bound());
            return ProbeResult.available(List.of(host));
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("C library allocator not reachable through FFM: " + e);
        }
    }
}
