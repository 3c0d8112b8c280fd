package dev.quiver.share.internal.protocol;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A device as the handshake names it: its {@code ARROW_DEVICE_*} type code, its id, and its UUID where the
 * device has one (16 zero bytes where it has none, such as the CPU).
 *
 * @param typeCode the {@code ARROW_DEVICE_*} code
 * @param id       the device id ({@code -1} for the CPU)
 * @param uuid     16 bytes
 */
public record DeviceName(int typeCode, long id, byte[] uuid) {
    /** The UUID of a device that has none. */
    public static final byte[] NO_UUID = new byte[16];

    /** Copies and checks the UUID. */
    public DeviceName {
        if (uuid.length != 16) {
            throw new IllegalArgumentException("a device UUID has 16 bytes, not " + uuid.length);
        }
        uuid = uuid.clone();
    }

    @Override
    public byte[] uuid() {
        return uuid.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceName other && other.typeCode == typeCode && other.id == id && Arrays.equals(other.uuid, uuid);
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(typeCode) * 31 + Long.hashCode(id) + Arrays.hashCode(uuid);
    }

    @Override
    public String toString() {
        return "device type " + typeCode + " id " + id + (Arrays.equals(uuid, NO_UUID) ? "" : " uuid " + HexFormat.of().formatHex(uuid));
    }

    void write(ByteWriter out) {
        out.u32(typeCode).u64(id).bytes(uuid);
    }

    static DeviceName read(ByteReader in) {
        return new DeviceName(in.u32("device_type"), in.u64("device_id"), in.bytes(16, "device_uuid"));
    }
}
