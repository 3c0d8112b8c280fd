package dev.quiver.share.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bodies of HELLO and WELCOME (docs/SHARING.md, "Handshake"), 48 bytes each: the magic
 * {@code "QVSHARE\0"}, the protocol version, the device, then two u32 fields (HELLO: the handle kinds the
 * receiver imports and flags; WELCOME: the owner's process id and a zero reserved field). Stateless.
 */
public final class Handshake {
    /** The protocol version this implementation speaks. */
    public static final int VERSION = 1;
    /** The first eight bytes of HELLO and WELCOME. */
    static final byte[] MAGIC = "QVSHARE\0".getBytes(StandardCharsets.US_ASCII);

    private Handshake() {}

    /**
     * The receiver's first message.
     *
     * @param version     the version the receiver speaks
     * @param device      the device the receiver wants arrays of
     * @param handleKinds the {@link HandleKind#bit()}s of the kinds it imports
     */
    public record Hello(int version, DeviceName device, int handleKinds) {
        /** {@return the body} */
        public byte[] encode() {
            ByteWriter out = new ByteWriter().bytes(MAGIC).u32(version);
            device.write(out);
            return out.u32(handleKinds).u32(0).toByteArray();
        }

        /**
         * {@return the HELLO in {@code body}}
         * @param body the received body
         * @throws ProtocolException if the magic is wrong or the body is not 48 bytes
         */
        public static Hello decode(byte[] body) {
            ByteReader in = reader(body, "HELLO");
            Hello hello = new Hello(in.u32("version"), DeviceName.read(in), in.u32("handle_kinds"));
            in.u32("flags");
            in.end();
            return hello;
        }
    }

    /**
     * The owner's answer to an accepted HELLO.
     *
     * @param version  the version the connection speaks
     * @param device   the device the owner serves
     * @param ownerPid the owner's process id
     */
    public record Welcome(int version, DeviceName device, int ownerPid) {
        /** {@return the body} */
        public byte[] encode() {
            ByteWriter out = new ByteWriter().bytes(MAGIC).u32(version);
            device.write(out);
            return out.u32(ownerPid).u32(0).toByteArray();
        }

        /**
         * {@return the WELCOME in {@code body}}
         * @param body the received body
         * @throws ProtocolException if the magic is wrong or the body is not 48 bytes
         */
        public static Welcome decode(byte[] body) {
            ByteReader in = reader(body, "WELCOME");
            Welcome welcome = new Welcome(in.u32("version"), DeviceName.read(in), in.u32("owner_pid"));
            in.u32("reserved");
            in.end();
            return welcome;
        }
    }

    private static ByteReader reader(byte[] body, String message) {
        ByteReader in = new ByteReader(body, message);
        if (!Arrays.equals(in.bytes(MAGIC.length, "magic"), MAGIC)) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + " does not start with the magic \"QVSHARE\\0\": "
                    + "the peer does not speak this protocol");
        }
        return in;
    }
}
