package dev.quiver.share.internal.protocol;

/**
 * A message that breaks the protocol or a receiver's limits, with the {@link ErrorCode} to send back and a
 * reason naming what was wrong.
 */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;

    /**
     * Creates the exception.
     *
     * @param code   the error code of the refusal
     * @param reason what was wrong, naming the message and field
     */
    public ProtocolException(ErrorCode code, String reason) {
        super(reason);
        this.code = code;
    }

    /** {@return the error code of the refusal} */
    public ErrorCode code() {
        return code;
    }
}
