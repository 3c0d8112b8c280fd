package dev.quiver;

import dev.quiver.spi.BackendDevice;

import java.util.Map;
import java.util.Objects;

/**
 * One usable device, as a chosen backend serves it. Immutable and safe to share between threads; a device
 * lives as long as the process (backends keep their contexts).
 */
public final class Device {
    private final String provider;
    private final BackendDevice backend;
    private final DeviceType type;

    Device(String provider, BackendDevice backend) {
        this.provider = Objects.requireNonNull(provider);
        this.backend = Objects.requireNonNull(backend);
        this.type = DeviceType.of(backend.deviceType());
    }

    /** @return the device type of its memory */
    public DeviceType type() {
        return type;
    }

    /** @return the device id as the Arrow C Device interface spells it (-1 for the CPU) */
    public long id() {
        return backend.deviceId();
    }

    /** @return a human-readable name */
    public String name() {
        return backend.name();
    }

    /** @return total memory in bytes, or -1 if unknown */
    public long totalMemory() {
        return backend.totalMemory();
    }

    /** @return whether the host can address this device's memory */
    public boolean isHostAccessible() {
        return backend.hostAccessible();
    }

    /** @return limits and facts the backend reports */
    public Map<String, String> properties() {
        return backend.properties();
    }

    /** @return the name of the provider serving this device */
    public String provider() {
        return provider;
    }

    /**
     * The backend vtable, for work the API does not wrap. Handles it returns are owned as its javadoc says.
     * It is the backend behind the argument checks common to every backend (alignment, sizes, offsets, copy
     * ranges, NULL handles, handles of another device, double free), which fail with
     * {@link IllegalArgumentException} before the backend is called.
     *
     * @return the SPI view of this device
     */
    public BackendDevice backend() {
        return backend;
    }

    /** @return the device's default stream, borrowed: closing it does nothing */
    public DeviceStream defaultStream() {
        return new DeviceStream(this, backend.defaultStream(), false);
    }

    /** @return a new stream, owned by the caller, who closes it */
    public DeviceStream createStream() {
        return new DeviceStream(this, backend.createStream(), true);
    }

    @Override
    public String toString() {
        return type + ":" + id() + " " + name() + " [" + provider + "]";
    }
}
