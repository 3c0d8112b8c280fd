package dev.quiver.flight;

/**
 * A Flight transfer that ended before its stream did: the server went away, refused the call, or the call
 * was cancelled. The message says which stream and how many batches had arrived; batches already handed out
 * stay valid and owned by their receivers. The cause is Arrow Flight's exception (a
 * {@link org.apache.arrow.flight.FlightRuntimeException} with the gRPC status) where there is one.
 */
public class FlightTransferException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and how far it got
     * @param cause   the failure
     */
    public FlightTransferException(String message, Throwable cause) {
        super(message, cause);
    }
}
