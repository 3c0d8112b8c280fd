package dev.quiver;

import java.util.NoSuchElementException;

/**
 * No usable backend serves a device that an array, event or request names: the device type has no
 * {@code quiver-device-*} jar on the path (or an unknown code, such as one a newer producer uses), or its
 * provider is unavailable, or it has no device with that id. The message names the type, its code and id,
 * and why each provider of the type is not usable. Thrown when the device is used (an event waited on, a
 * copy), never on import: an array of any device type imports and exports unchanged.
 */
public final class NoBackendException extends NoSuchElementException {
    private static final long serialVersionUID = 1L;

    /** The device type asked for. */
    private final transient DeviceType type;
    /** The device id asked for. */
    private final long id;

    NoBackendException(DeviceType type, long id, String message) {
        super(message);
        this.type = type;
        this.id = id;
    }

    /** {@return the device type no backend serves} */
    public DeviceType type() {
        return type;
    }

    /** {@return the device id asked for} */
    public long id() {
        return id;
    }
}
