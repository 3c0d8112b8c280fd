package dev.quiver.share;

/**
 * Sharing with another process failed: the handshake was refused (another protocol version, another device,
 * another user), the peer sent something malformed or past the limits, or the peer is gone. The message names
 * the peer (its process id) and what was wrong; {@link #reason()} says which of these it was.
 */
public final class ShareException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Reason {
        /** The peers speak no common protocol version. */
        VERSION,
        /** The receiver asked for another device than the owner serves. */
        DEVICE,
        /** The peer runs as another user. */
        PEER_USER,
        /** A malformed message. */
        PROTOCOL,
        /** A message past a receiver's limits, such as a buffer past the memory its handle maps. */
        LIMIT,
        /** The owner's source of arrays failed. */
        SOURCE,
        /** A handle kind or event the receiver cannot import. */
        HANDLE_KIND,
        /** The peer closed the connection or died before the exchange was complete. */
        PEER_GONE,
        /** The peer sent nothing within the receiver's {@link ReceiveOptions#timeout()}. */
        TIMEOUT,
        /** A system call failed (the socket could not be made or reached). */
        SYSTEM
    }

    /** What went wrong. */
    private final Reason reason;

    /**
     * Creates the exception.
     *
     * @param reason  what went wrong
     * @param message the details, naming the peer
     * @param cause   the underlying failure, or null
     */
    public ShareException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** {@return what went wrong} */
    public Reason reason() {
        return reason;
    }
}
