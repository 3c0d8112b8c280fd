package dev.quiver.flight;

import org.apache.arrow.flight.Ticket;

import java.nio.charset.StandardCharsets;

/**
 * One case of {@link FlightThroughput}: {@code batches} batches of one {@code type} column of {@code batchBytes}
 * each, split evenly over {@code streams} streams, and the names both sides give its streams. Immutable.
 *
 * @param type       {@code int64} or {@code utf8}
 * @param batchBytes a batch's size as asked for (its buffers are about that)
 * @param streams    streams the batches are split over, each a contiguous run of them
 * @param batches    all batches of the case, a multiple of {@code streams}
 */
record BenchCase(String type, long batchBytes, int streams, int batches) {
    /** {@return the batches of each stream} */
    int perStream() {
        return batches / streams;
    }

    /** {@return the name of the Quiver stream (one endpoint per stream)} */
    String quiverName() {
        return "quiver/" + type + "/" + batchBytes + "/" + streams;
    }

    /**
     * @param part a stream, {@code 0 <= part < streams}
     * @return the plain Arrow Java ticket of that stream
     */
    Ticket plainTicket(int part) {
        return new Ticket(plainName(part).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param part a stream, {@code 0 <= part < streams}
     * @return the name of the plain Arrow Java stream that part is served under
     */
    String plainName(int part) {
        return "plain/" + type + "/" + batchBytes + "/" + streams + "/" + part;
    }
}
