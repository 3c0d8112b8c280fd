package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;

/**
 * How messages name a backend device: its own {@code toString()} where its class writes one, else its type
 * code, id and name. Stateless; thread-safe.
 */
final class DeviceLabels {
    private DeviceLabels() {}

    /**
     * @param backend a backend device
     * @return its name for messages
     */
    static String of(BackendDevice backend) {
        if (writesToString(backend.getClass())) {
            return backend.toString();
        }
        return "device type " + backend.deviceType() + " id " + backend.deviceId() + " (" + backend.name() + ")";
    }

    private static boolean writesToString(Class<?> type) {
        try {
            return type.getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
