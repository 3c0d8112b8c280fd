package dev.quiver.flight;

import dev.quiver.flight.wire.CodecPut;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.util.Objects;

/**
 * A client's {@code DoPut} of one stream on Quiver's data path (see
 * {@link DeviceFlightClient#put(String, DeviceArrayStream)}): the stream's batches copied to the host one batch
 * ahead of the network ({@link HostArrays}) and written from host memory ({@link CodecPut}), then the ticket the
 * server issued read from its acknowledgement. Stateless; runs on the calling thread (and the copying thread),
 * which owns the stream until it is consumed (closed) here.
 */
final class Puts {
    private Puts() {}

    /**
     * @param stub        the channel and call options (credentials, deadline) of the call
     * @param name        the name the stream is sent under
     * @param stream      the stream; consumed (closed)
     * @param compression how the bodies of the batches are compressed
     * @return the ticket the server issued
     * @throws FlightTransferException if the stream or the server failed before the end
     */
    static Ticket put(FlightServiceGrpc.FlightServiceStub stub, String name, DeviceArrayStream stream, FlightCompression compression) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(stream, "stream");
        try {
            byte[] ticket = CodecPut.put(stub.getChannel(), stub.getCallOptions(), name, stream.schema(), new HostArrays(stream, "put-" + name), compression);
            if (ticket == null) {
                throw new FlightTransferException("the server acknowledged the put of " + name + " without a ticket", null);
            }
            return new Ticket(ticket);
        } catch (RuntimeException e) {
            RuntimeException reason = e instanceof FlightRuntimeException flight ? FlightErrors.withReason(flight) : e;
            throw e instanceof FlightTransferException f ? f : new FlightTransferException("put of " + name + " failed: " + reason.getMessage(), reason);
        }
    }
}
