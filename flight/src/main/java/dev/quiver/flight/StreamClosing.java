package dev.quiver.flight;

import org.apache.arrow.flight.FlightStream;

/**
 * Closes a Flight stream whose schema never arrived. Arrow Java's {@link FlightStream#close()} drains what
 * is left with {@code next()}, which waits for the schema without limit, so a put that sent a batch before
 * its schema would hold the closing thread forever and keep what it sent. Closing with the thread's interrupt
 * flag set makes that first wait end at once ({@code next()} fails, and {@code close()} goes on to release
 * every message still queued); the flag is cleared afterwards, and set again if it was set before. A client's
 * call is cancelled before, so that the flag is not spent on the cancellation. Stateless.
 */
final class StreamClosing {
    private StreamClosing() {}

    /**
     * @param stream a stream whose schema did not arrive ({@link FlightStream#hasRoot()} false); closed here
     * @param failure what the caller is about to throw, which keeps what closing threw as suppressed
     */
    static void closeWithoutSchema(FlightStream stream, Throwable failure) {
        try {
            // a client's call is cancelled first, so that close() goes straight to the drain
            stream.cancel("no schema arrived", null);
        } catch (UnsupportedOperationException serverSide) {
            // a put's stream cannot be cancelled by the server
        }
        boolean wasInterrupted = Thread.interrupted();
        Thread.currentThread().interrupt();
        try {
            stream.close();
        } catch (Exception e) {
            // expected: the drain fails on the interrupt before close releases what is queued
            if (!(e.getCause() instanceof InterruptedException) && !(e instanceof RuntimeException)) {
                failure.addSuppressed(e);
            }
        } finally {
            Thread.interrupted();
            if (wasInterrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
