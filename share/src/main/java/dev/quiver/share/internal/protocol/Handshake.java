package dev.quiver.share.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bodies of HELLO (64 bytes) and WELCOME (48 bytes) (docs/SHARING.md, "HELLO", "WELCOME"): the magic
 * {@code "QVSHARE\0"}, the protocol version, the device, then for HELLO the handle kinds the receiver imports,
 * flags and the bound of its region cache; for WELCOME the owner's process id and a zero reserved field.
 * {@link #version} reads only the magic and the version, which every version keeps in place, so that a peer of
 * another version is refused with {@link ErrorCode#VERSION} rather than a malformed body. Stateless.
 */
public final class Handshake {
    /** The protocol version this implementation speaks. */
    public static final int VERSION = 2;
    /** The first eight bytes of HELLO and WELCOME. */
    static final byte[] MAGIC = "QVSHARE\0".getBytes(StandardCharsets.US_ASCII);

    private Handshake() {}

    /**
     * {@return the version a HELLO or WELCOME names, read from its first 12 bytes alone}
     * @param body    the received body
     * @param message the message's name, for errors
     * @throws ProtocolException if the magic is wrong or the body is shorter than 12 bytes
     */
    public static int version(byte[] body, String message) {
        return reader(body, message).u32("version");
    }

    /**
     * The receiver's first message.
     *
     * @param version          the version the receiver speaks
     * @param device           the device the receiver wants arrays of
     * @param handleKinds      the {@link HandleKind#bit()}s of the kinds it imports
     * @param maxRegions       how many regions the owner may keep known to the receiver at once (at least 1)
     * @param maxMappedBytes   how many bytes those regions may have together (at least 1)
     * @param flags            {@link #EVENTS} or 0; bits this version does not name are ignored
     */
    public record Hello(int version, DeviceName device, int handleKinds, int maxRegions, long maxMappedBytes, int flags) {
        /** The HELLO flag of a receiver that opens the inter-process events of the device handle kinds it imports. */
        public static final int EVENTS = 1;

        /**
         * A HELLO without flags.
         *
         * @param version        see the record
         * @param device         see the record
         * @param handleKinds    see the record
         * @param maxRegions     see the record
         * @param maxMappedBytes see the record
         */
        public Hello(int version, DeviceName device, int handleKinds, int maxRegions, long maxMappedBytes) {
            this(version, device, handleKinds, maxRegions, maxMappedBytes, 0);
        }

        /** {@return whether the receiver opens events} */
        public boolean opensEvents() {
            return (flags & EVENTS) != 0;
        }

        /** {@return the body} */
        public byte[] encode() {
            ByteWriter out = new ByteWriter().bytes(MAGIC).u32(version);
            device.write(out);
            return out.u32(handleKinds).u32(flags).u32(maxRegions).u32(0).u64(maxMappedBytes).toByteArray();
        }

        /**
         * {@return the HELLO of version 2 in {@code body}}
         * @param body the received body
         * @throws ProtocolException if the magic is wrong, the body is not 64 bytes, or the cache bound is not
         *                           positive
         */
        public static Hello decode(byte[] body) {
            ByteReader in = reader(body, "HELLO");
            int version = in.u32("version");
            DeviceName device = DeviceName.read(in);
            int kinds = in.u32("handle_kinds");
            int flags = in.u32("flags");
            int maxRegions = in.u32("max_regions");
            in.reserved("reserved");
            long maxBytes = in.u64("max_mapped_bytes");
            in.end();
            if (maxRegions <= 0 || maxBytes <= 0) {
                throw new ProtocolException(ErrorCode.PROTOCOL, "HELLO: max_regions (" + Integer.toUnsignedString(maxRegions)
                        + ") and max_mapped_bytes (" + Long.toUnsignedString(maxBytes) + ") must be at least 1 and below 2^31 and 2^63");
            }
            return new Hello(version, device, kinds, maxRegions, maxBytes, flags);
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
            in.reserved("reserved");
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
