package dev.quiver.flight.wire;

import java.io.InputStream;

/**
 * One {@code FlightData} message: one to send ({@link OutgoingMessage}) or one received
 * ({@link ReceivedMessage}), the type {@link FlightDataMarshaller} moves between gRPC and Quiver.
 *
 * <p><b>Ownership.</b> A message holds memory (the batch it was encoded from, or the body it was received
 * into) until it is streamed (which hands the memory to the stream) or closed. <b>Threading.</b> One thread
 * at a time.
 */
sealed interface FlightMessage extends AutoCloseable permits OutgoingMessage, ReceivedMessage, EncodedMessage {

    /**
     * {@return the message's bytes as gRPC reads them, owning the message's memory from now on (see
     * {@link OutgoingStream}); a message is streamed once}
     * @throws IllegalStateException if the message was streamed or closed before
     */
    InputStream stream();

    /** Lets go of the message's memory unless it was streamed; idempotent, any thread. */
    @Override
    void close();
}
