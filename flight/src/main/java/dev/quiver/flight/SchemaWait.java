package dev.quiver.flight;

import org.apache.arrow.flight.FlightStream;

import java.time.Duration;

/**
 * Waits for the schema that must open every Flight stream, for a bounded time. Arrow Java's
 * {@link FlightStream#getRoot()} waits without limit, and a peer that sends a batch before its schema, or
 * ends its call without one, would hold the waiting thread forever; so the wait polls
 * {@link FlightStream#hasRoot()} (every 0.1 ms at first, backing off to 10 ms) until the schema came, the call
 * failed, or the time is up. Stateless.
 */
final class SchemaWait {
    /** How long a stream may take to send its schema unless configured otherwise. */
    static final Duration DEFAULT = Duration.ofSeconds(60);

    private SchemaWait() {}

    /**
     * @param timeout a schema timeout someone sets
     * @return the timeout
     * @throws IllegalArgumentException if it is not positive
     */
    static Duration requirePositive(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the schema timeout must be positive, not " + timeout);
        }
        return timeout;
    }

    /**
     * @param stream  the stream, read by the calling thread
     * @param timeout how long the schema may take
     * @param what    names the stream in the message
     * @throws InvalidFlightDataException if no schema arrived within {@code timeout}
     * @throws org.apache.arrow.flight.FlightRuntimeException if the call failed before the schema came
     */
    static void await(FlightStream stream, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pauseNanos = 100_000;
        while (!stream.hasRoot()) {
            if (System.nanoTime() - deadline > 0) {
                throw new InvalidFlightDataException(what + ": no schema arrived within " + timeout.toMillis()
                        + " ms: a Flight stream must start with its schema (a batch sent before it, or a call ended"
                        + " without one, is refused)", null);
            }
            try {
                Thread.sleep(Duration.ofNanos(pauseNanos));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FlightTransferException(what + ": interrupted while waiting for the schema", e);
            }
            pauseNanos = Math.min(pauseNanos * 2, 10_000_000);
        }
    }
}
