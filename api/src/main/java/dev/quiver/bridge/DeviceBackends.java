package dev.quiver.bridge;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.internal.access.ApiAccess;
import dev.quiver.Devices;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.spi.BackendDevice;

/**
 * Finds the backend that serves a device, for the protocol packages that move bytes themselves. Stateless;
 * safe from any thread.
 */
public final class DeviceBackends {
    private DeviceBackends() {}

    /**
     * @param type     a device type
     * @param deviceId its Arrow device id
     * @param devices  where to find backends
     * @return the backend of that device; for the CPU, host memory of this JVM (no plugin needed)
     * @throws java.util.NoSuchElementException if no chosen backend serves the device
     */
    public static BackendDevice of(DeviceType type, long deviceId, Devices devices) {
        return type.equals(DeviceType.CPU) ? HostMemory.device() : ApiAccess.<Device, BackendSelection, Devices>get().backend(devices.get(type, deviceId));
    }
}
