package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.flight.wire.CodecFetch;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The batches of a {@code DoGet} on Quiver's data path as device arrays on a target device: each batch is
 * received into host memory (gRPC's executor copies the next message's body while this thread works on the
 * one before, see {@link CodecFetch}), checked, and handed over on the CPU, or copied to the target on its
 * default stream, which returns before the copy completes where the target has events and keeps the host batch
 * alive until it does, so the upload overlaps the next message.
 *
 * <p><b>Ownership.</b> Owns the fetch: {@link #close()} cancels the call if it has not ended and releases what
 * was received and not taken, then closes {@code connection} if given. Arrays {@link #next()} returns are the
 * caller's and outlive this object.
 *
 * <p><b>Threading.</b> {@link #hasNext()}, {@link #next()} and {@link #close()} from one thread at a time.
 *
 * <p><b>Errors.</b> A message that breaks the format ends the stream with an {@link InvalidFlightDataException}
 * after the batches before it; a call that fails (server gone, cancelled, deadline) with a
 * {@link FlightTransferException} naming how many batches arrived and carrying the Flight status.
 */
final class CodecBatches extends ArrivingBatches {
    private final CodecFetch fetch;
    private final AtomicLong bytesReceived;
    private long counted;

    /**
     * @param fetch         a fetch whose schema arrived; owned by this object from now on
     * @param target        where the batches land
     * @param what          names the stream in messages
     * @param bytesReceived counts the body bytes received
     * @param connection    closed after the fetch, or null
     */
    CodecBatches(CodecFetch fetch, Device target, String what, AtomicLong bytesReceived, AutoCloseable connection) {
        super(target, what, connection);
        this.fetch = fetch;
        this.bytesReceived = bytesReceived;
        count();
    }

    /**
     * Starts a {@code DoGet} on Quiver's data path and waits for its schema.
     *
     * @param stub          the channel and call options (credentials, deadline) of the call
     * @param ticket        a ticket the server issued
     * @param target        where the batches land
     * @param host          the CPU, where bodies are received
     * @param schemaTimeout how long the server may take to send the schema
     * @param bytesReceived counts the body bytes received
     * @param connection    closed with the stream (or at once if the call fails to start), or null
     * @return the stream, owned by the caller
     * @throws FlightRuntimeException     if the server refuses the call (the reason in its description)
     * @throws InvalidFlightDataException if the schema cannot be taken or does not come in time
     */
    static DeviceArrayStream open(FlightServiceGrpc.FlightServiceStub stub, Ticket ticket, Device target, Device host, Duration schemaTimeout,
                                  AtomicLong bytesReceived, AutoCloseable connection) {
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(target, "target");
        String what = "flight stream " + Tickets.describe(ticket);
        CodecFetch fetch = null;
        try {
            fetch = CodecFetch.start(stub.getChannel(), stub.getCallOptions(), ticket.getBytes(), host, what);
            Field schema = fetch.awaitSchema(schemaTimeout);
            CodecBatches batches = new CodecBatches(fetch, target, what, bytesReceived, connection);
            try {
                return DeviceArrayStream.of(schema, target.type(), batches);
            } catch (RuntimeException | Error e) {
                batches.close();
                throw e;
            }
        } catch (RuntimeException | Error e) {
            if (fetch != null) {
                fetch.close();
            }
            ReceivedStreams.closeQuietly(connection, e);
            if (e instanceof FlightRuntimeException flight) {
                throw FlightErrors.withReason(flight);
            }
            throw e;
        }
    }

    @Override
    DeviceArray receive(long delivered) {
        try {
            return fetch.next();
        } catch (FlightRuntimeException e) {
            FlightRuntimeException reason = FlightErrors.withReason(e);
            throw new FlightTransferException(what + " failed after " + delivered + " batch(es) arrived: " + reason.getMessage(), reason);
        } finally {
            count();
        }
    }

    private void count() {
        long now = fetch.bodyBytes();
        bytesReceived.addAndGet(now - counted);
        counted = now;
    }

    @Override
    DeviceArray land(DeviceArray received) {
        return LandedBatches.landOverlapped(received, target);
    }

    @Override
    void stopReceiving() {
        fetch.close();
    }
}
