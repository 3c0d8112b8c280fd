package dev.quiver.flight;

import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightClient.ClientStreamListener;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Objects;
import java.util.concurrent.ExecutionException;

/**
 * A client's {@code DoPut} of one stream (see {@link DeviceFlightClient#put(String, DeviceArrayStream)}): the
 * stream's batches copied to the host and written through Arrow Java's put listener, then the ticket the server
 * issued read from its acknowledgement. Stateless; runs on the calling thread, which owns the stream until it is
 * consumed (closed) here.
 */
final class Puts {
    private Puts() {}

    /**
     * @param client    the Flight client the put is made on
     * @param allocator charged for the host copies of the batches
     * @param options   the client's call options
     * @param name      the name the stream is sent under
     * @param stream    the stream; consumed (closed)
     * @return the ticket the server issued
     * @throws FlightTransferException if the stream or the server failed before the end
     */
    static Ticket put(FlightClient client, BufferAllocator allocator, CallOption[] options, String name, DeviceArrayStream stream) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(stream, "stream");
        try (HostBatches batches = new HostBatches(stream, allocator, name);
             SyncPutListener acknowledgements = new SyncPutListener()) {
            ClientStreamListener listener = client.startPut(FlightDescriptor.path(name), acknowledgements, options);
            try {
                BatchSender.send(batches, stream.schema(), listener, ReadyGate.OPEN, allocator);
            } catch (RuntimeException | Error e) {
                listener.error(e);
                throw e;
            }
            listener.getResult();
            return issuedTicket(name, acknowledgements);
        } catch (RuntimeException e) {
            RuntimeException reason = e instanceof FlightRuntimeException flight ? FlightErrors.withReason(flight) : e;
            throw e instanceof FlightTransferException f ? f : new FlightTransferException("put of " + name + " failed: " + reason.getMessage(), reason);
        }
    }

    private static Ticket issuedTicket(String name, SyncPutListener acknowledgements) {
        try (PutResult result = acknowledgements.read()) {
            if (result == null) {
                throw new FlightTransferException("the server acknowledged the put of " + name + " without a ticket", null);
            }
            ArrowBuf metadata = result.getApplicationMetadata();
            byte[] ticket = new byte[(int) metadata.readableBytes()];
            metadata.getBytes(0, ticket);
            return new Ticket(ticket);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlightTransferException("interrupted while waiting for the ticket of " + name, e);
        } catch (ExecutionException e) {
            throw new FlightTransferException("put of " + name + " failed: " + e.getCause().getMessage(), e.getCause());
        }
    }
}
