package com.example.quiver.hostext;

import com.google.auto.service.AutoService;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.util.List;

/**
 * Serves {@code ARROW_DEVICE_EXT_DEV} with one device, id 0, made on the first probe. Thread-safe; the
 * constructor does nothing.
 */
@AutoService(DeviceProvider.class)
public final class HostExtProvider implements DeviceProvider {
    private static volatile HostExtDevice device;

    /** Does nothing: the device is made by {@link #probe()}. */
    public HostExtProvider() {}

    @Override
    public String name() {
        return "hostext";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.EXT_DEV};
    }

    @Override
    public ProbeResult probe() {
        return ProbeResult.available(List.of(device()));
    }

    private static HostExtDevice device() {
        HostExtDevice result = device;
        if (result == null) {
            synchronized (HostExtProvider.class) {
                result = device;
                if (result == null) {
                    result = new HostExtDevice();
                    device = result;
                }
            }
        }
        return result;
    }
}
