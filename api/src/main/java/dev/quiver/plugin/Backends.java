package dev.quiver.plugin;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.Devices;
import dev.quiver.internal.access.ApiAccess;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;

import java.util.List;

/**
 * Where the API meets the SPI: a device's backend, and devices over providers given by hand (a plugin under
 * test, or a backend's provider of devices adopted from an application's own context, such as
 * {@code OpenClDevices.provider} or {@code CudaInterop}). Stateless; thread-safe.
 *
 * {@snippet lang = java :
 * Devices devices = Backends.devices(List.of(provider), BackendSelection.all());
 * BackendDevice backend = Backends.of(devices.get(DeviceType.OPENCL, 0));
 * }
 */
@SuppressWarnings("exports")   // its callers require dev.quiver.spi themselves: the API does not re-export it
public final class Backends {
    private Backends() {}

    /**
     * The backend of a device, for work the API does not wrap. Handles it returns are owned as its javadoc
     * says. It is the backend behind the argument checks common to every backend (alignment, sizes, offsets,
     * copy ranges, NULL handles, handles of another device, double free), which fail with
     * {@link IllegalArgumentException} before the backend is called, and it reports a backend's failures as
     * {@link dev.quiver.DriverException}s.
     *
     * @param device a device
     * @return the SPI view of the device
     */
    public static BackendDevice of(Device device) {
        return ApiAccess.<Device, BackendSelection, Devices>get().backend(device);
    }

    /**
     * Devices over the given providers instead of those {@link java.util.ServiceLoader} finds.
     *
     * @param providers providers to use
     * @param selection which of them are allowed
     * @return devices over exactly these providers (and the CPU)
     */
    public static Devices devices(List<? extends DeviceProvider> providers, BackendSelection selection) {
        Devices.cpuOnly();   // initialises the API's access
        return ApiAccess.<Device, BackendSelection, Devices>get().devices(providers, selection);
    }
}
