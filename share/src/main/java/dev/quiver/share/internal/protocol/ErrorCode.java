package dev.quiver.share.internal.protocol;

/** The codes of an ERROR message (docs/SHARING.md, "ERROR"). */
public enum ErrorCode {
    /** The peer speaks no version this side speaks. */
    VERSION(1),
    /** The device the receiver asked for is not the one the owner serves. */
    DEVICE(2),
    /** The peer runs as another user. */
    PEER_USER(3),
    /** A malformed message: wrong magic, type, length or field. */
    PROTOCOL(4),
    /** A message within the format but past a receiver's limits (sizes, counts, nesting). */
    LIMIT(5),
    /** The owner's source of arrays failed. */
    SOURCE(6),
    /** A handle kind the receiver cannot import. */
    HANDLE_KIND(7);

    private final int wire;

    ErrorCode(int wire) {
        this.wire = wire;
    }

    /** {@return the code on the wire} */
    public int wire() {
        return wire;
    }

    /**
     * {@return the code of a wire value; {@link #PROTOCOL} for one this version does not know}
     * @param wire the value on the wire
     */
    public static ErrorCode of(int wire) {
        for (ErrorCode code : values()) {
            if (code.wire == wire) {
                return code;
            }
        }
        return PROTOCOL;
    }
}
