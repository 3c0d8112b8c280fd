package dev.quiver.flight;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * A Flight transfer that ended before its stream did: the server went away, refused the call, or the call
 * was cancelled. The message says which stream and how many batches had arrived; batches already handed out
 * stay valid and owned by their receivers. The cause is Arrow Flight's exception (a
 * {@link FlightRuntimeException} with the gRPC status) where there is one, and {@link #status()} is its
 * status, so that a caller can tell a refused call ({@code UNAUTHENTICATED}, {@code NOT_FOUND}) from a
 * broken connection ({@code UNAVAILABLE}) without reading messages.
 */
public class FlightTransferException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception of a transfer that failed.
     *
     * @param message what failed and how far it got
     * @param cause   the failure
     */
    public FlightTransferException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * {@return the Flight status of the failure: the status of the first {@link FlightRuntimeException} in the cause
     * chain, {@code CANCELLED} for an interrupted wait, else {@code UNKNOWN}}
     */
    public CallStatus status() {
        for (Throwable t = getCause(); t != null; t = t.getCause()) {
            if (t instanceof FlightRuntimeException flight) {
                return flight.status();
            }
            if (t instanceof InterruptedException) {
                return CallStatus.CANCELLED.withDescription(getMessage());
            }
        }
        return new CallStatus(FlightStatusCode.UNKNOWN, this, getMessage(), null);
    }
}
