package dev.quiver.flight;

import org.apache.arrow.flight.CallStatus;

/**
 * What a Flight peer sent breaks the Arrow format: a message that cannot be read, a schema Quiver cannot
 * take, or a batch whose structs, offsets, lengths, indexes or UTF-8 do not fit the buffers that actually
 * arrived. The message names the stream, the batch and the field path ({@code children[1].buffers[2]}) with
 * the rule broken. Nothing of the refused batch is kept: it was released before this was thrown, and a put
 * that carried it is not stored. Its {@link #status()} is {@code INVALID_ARGUMENT}, which a server returns to
 * the client that put the batch.
 */
public final class InvalidFlightDataException extends FlightTransferException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception of a refused stream.
     *
     * @param message what was refused and why, naming the field path
     * @param cause   what found the fault (Quiver's validator, or Arrow Java's reader), or null
     */
    public InvalidFlightDataException(String message, Throwable cause) {
        super(message, cause);
    }

    /** @return {@code INVALID_ARGUMENT}, with this exception's message */
    @Override
    public CallStatus status() {
        return CallStatus.INVALID_ARGUMENT.withDescription(getMessage()).withCause(this);
    }

    /**
     * @param failure anything a transfer threw
     * @return the first InvalidFlightDataException in its cause chain, or null
     */
    static InvalidFlightDataException in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidFlightDataException invalid) {
                return invalid;
            }
        }
        return null;
    }
}
