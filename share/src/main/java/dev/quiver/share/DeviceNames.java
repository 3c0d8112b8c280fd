package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.share.internal.protocol.DeviceName;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The handshake's name of a {@link Device}: type code, id, and the UUID its backend reports as its {@code uuid}
 * property (a Vulkan device's {@code deviceUUID}), if any; and which names an owner serves a device under
 * (docs/SHARING.md, "HELLO"). Stateless.
 */
final class DeviceNames {
    private DeviceNames() {}

    /** {@return the name a receiver of {@code device} sends, and an owner of it names in a refusal} */
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

    /**
     * {@return whether a HELLO that asks for {@code asked} names {@code device}}: the same type, and either the same
     * non-zero UUID (whatever the id: an id is the device's index in each process's enumeration, which may differ
     * between processes, where a UUID names the device itself), or the same id with the UUID the device reports or
     * with 16 zero bytes (a receiver that knows no UUID of the device)
     */
    static boolean serves(Device device, DeviceName asked) {
        DeviceName name = of(device);
        if (asked.typeCode() != name.typeCode()) {
            return false;
        }
        byte[] uuid = asked.uuid();
        boolean zero = Arrays.equals(uuid, DeviceName.NO_UUID);
        if (!zero && Arrays.equals(uuid, name.uuid())) {
            return true;
        }
        return zero && asked.id() == name.id();
    }
}
