package dev.quiver.flight;

import org.apache.arrow.flight.FlightRuntimeException;

import javax.net.ssl.SSLException;

/**
 * Flight errors that name their real reason. gRPC reports a connection that failed as
 * {@code UNAVAILABLE: io exception} and a TLS handshake the client refused as
 * {@code UNAVAILABLE: io exception Channel Pipeline: [...]}, with the reason only in the cause chain (the
 * refused connection, the unknown host, the certificate that could not be validated); these calls add that
 * reason to the description, keeping the status code and the original exception as the cause. Stateless.
 */
final class FlightErrors {
    private FlightErrors() {}

    /**
     * @param e a Flight call's failure
     * @return {@code e} if its description already says why, else an exception of the same status whose
     *         description ends with the reason found in the cause chain
     */
    static FlightRuntimeException withReason(FlightRuntimeException e) {
        String reason = reason(e);
        String description = e.status().description() == null ? "" : e.status().description();
        if (reason == null || description.contains(reason)) {
            return e;
        }
        String io = description.startsWith("io exception") ? "io exception" : description;
        return e.status().withDescription(io + ": " + reason).withCause(e).toRuntimeException();
    }

    /**
     * @return the deepest message in the chain (the refused connection, the certificate that could not be
     *         validated), marked as TLS's where a TLS exception is on the way
     */
    private static String reason(Throwable e) {
        String deepest = null;
        boolean tls = false;
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            tls |= t instanceof SSLException;
            if (t.getMessage() != null && !(t instanceof FlightRuntimeException) && !t.getClass().getName().startsWith("io.grpc.")) {
                deepest = t.getClass().getSimpleName() + ": " + t.getMessage();
            }
        }
        return deepest == null ? null : tls ? "TLS: " + deepest : deepest;
    }
}
