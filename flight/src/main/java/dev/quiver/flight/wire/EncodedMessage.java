package dev.quiver.flight.wire;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@code FlightData} message another marshaller already encoded: Arrow Java's, for the {@code DoGet} streams
 * a server hands to Arrow Java's own handler (see {@link TicketRouting}). Its bytes go to gRPC as that
 * marshaller made them, its buffers and copies its own.
 *
 * <p><b>Ownership.</b> Owns the stream until {@link #stream()} hands it to gRPC or {@link #close()} closes it.
 * <b>Threading.</b> One thread at a time; {@link #close()} any thread.
 */
final class EncodedMessage implements FlightMessage {
    private final InputStream bytes;
    private final AtomicBoolean taken = new AtomicBoolean();

    /** @param bytes the message as its marshaller streams it; owned by this message from now on */
    EncodedMessage(InputStream bytes) {
        this.bytes = bytes;
    }

    @Override
    public InputStream stream() {
        if (!taken.compareAndSet(false, true)) {
            throw new IllegalStateException("this FlightData message was already streamed or closed");
        }
        return bytes;
    }

    @Override
    public void close() {
        if (taken.compareAndSet(false, true)) {
            try {
                bytes.close();
            } catch (IOException e) {
                // the marshaller's stream lets go of its buffers; nothing was sent that could be reported
            }
        }
    }
}
