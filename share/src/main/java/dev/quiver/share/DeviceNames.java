package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.share.internal.protocol.DeviceName;

import java.util.HexFormat;

/** The handshake's name of a {@link Device}: type code, id, and the UUID its backend reports, if any. Stateless. */
final class DeviceNames {
    private DeviceNames() {}

    static DeviceName of(Device device) {
        String uuid = device.properties().getOrDefault("uuid", "").replace("-", "");
        byte[] bytes = DeviceName.NO_UUID;
        if (uuid.length() == 32) {
            try {
                bytes = HexFormat.of().parseHex(uuid);
            } catch (IllegalArgumentException notHex) {
                bytes = DeviceName.NO_UUID;
            }
        }
        return new DeviceName(device.type().code(), device.id(), bytes);
    }
}
