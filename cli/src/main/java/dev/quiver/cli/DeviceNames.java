package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;

import java.util.Locale;

/** Devices named on the command line as {@code TYPE[:ID]} ({@code cpu}, {@code opencl}, {@code vulkan:1}). */
public final class DeviceNames {
    private DeviceNames() {}

    /**
     * Finds a device by its command-line name.
     *
     * @param name    a device type name, as {@code quiver devices} prints it, optionally {@code :ID} (default 0)
     * @param devices where to look
     * @return the device
     * @throws IllegalArgumentException if there is no such device type or device
     */
    public static Device parse(String name, Devices devices) {
        String[] parts = name.split(":", 2);
        DeviceType type = DeviceType.byName(parts[0].toUpperCase(Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException("no device type " + parts[0] + " (see quiver devices)"));
        if (type.equals(DeviceType.CPU)) {
            return devices.cpu();
        }
        long id = parts.length == 2 ? Long.parseLong(parts[1]) : 0;
        return devices.find(type, id).orElseThrow(() -> new IllegalArgumentException("no device " + type + ":" + id + " here (see quiver devices)"));
    }
}
