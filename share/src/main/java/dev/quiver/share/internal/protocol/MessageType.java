package dev.quiver.share.internal.protocol;

/** The message types of protocol version 2 (docs/SHARING.md, "Messages"). */
public enum MessageType {
    /** Receiver to owner, first: version, device asked for, handle kinds it imports. */
    HELLO(1),
    /** Owner to receiver: the handshake is accepted; version and the device served. */
    WELCOME(2),
    /** Owner to receiver: the schema of every batch. */
    SCHEMA(3),
    /** Receiver to owner: room for more batches. */
    REQUEST(4),
    /** Owner to receiver: one array as handles, offsets and lengths; carries descriptors. */
    BATCH(5),
    /** Receiver to owner: batches whose memory is no longer used (one or more ids). */
    RELEASED(6),
    /** Owner to receiver: no more batches. */
    END(7),
    /** Either way: a refusal or failure with a reason; the sender closes next. */
    ERROR(8),
    /** Owner to receiver: regions retired (one or more ids); each is unmapped once no batch uses it. */
    REGION_CLOSED(9);

    private final int wire;

    MessageType(int wire) {
        this.wire = wire;
    }

    /** {@return the type code on the wire} */
    public int wire() {
        return wire;
    }

    /**
     * {@return the type of a wire code}
     * @param wire the code
     * @throws ProtocolException if no message has that code
     */
    public static MessageType of(int wire) {
        for (MessageType type : values()) {
            if (type.wire == wire) {
                return type;
            }
        }
        throw new ProtocolException(ErrorCode.PROTOCOL, "unknown message type " + wire);
    }
}
