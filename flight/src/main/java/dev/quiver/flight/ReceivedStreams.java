package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Flight stream being received, as a {@link DeviceArrayStream} whose batches land on a target device (see
 * {@link LandedBatches}). Used by the client's {@code DoGet} and the server's {@code DoPut}.
 */
final class ReceivedStreams {
    private ReceivedStreams() {}

    /**
     * Waits for the stream's schema, then starts receiving.
     *
     * @param stream    a Flight stream; owned by the result from now on (closed here if this throws)
     * @param target    where the batches land
     * @param allocator charged for received buffers (see {@link LandedBatches})
     * @param devices   the registry the arrays use for copies
     * @param what      names the stream in messages
     * @param bytesReceived counts the bytes of Arrow data received
     * @param connection    closed with the stream (also if this throws), or null
     * @param schemaTimeout how long the peer may take to send the schema (see {@link SchemaWait})
     * @return the stream, owned by the caller: closing it cancels the call if it has not ended
     * @throws FlightRuntimeException if the call was refused before the schema came (the description names why)
     * @throws InvalidFlightDataException if the schema cannot be taken
     */
    static DeviceArrayStream open(FlightStream stream, Device target, BufferAllocator allocator, Devices devices, String what, AtomicLong bytesReceived,
                                  AutoCloseable connection, Duration schemaTimeout) {
        Field schema;
        try {
            SchemaWait.await(stream, schemaTimeout, what);
            schema = ReceivedBatchCheck.schema(stream, allocator, what + ": the schema");
        } catch (RuntimeException | Error e) {
            if (stream.hasRoot()) {
                closeQuietly(stream, e);
            } else {
                // closing cancels a client's call first; what is queued is released without waiting for the schema
                StreamClosing.closeWithoutSchema(stream, e);
            }
            closeQuietly(connection, e);
            if (e instanceof FlightRuntimeException flight) {
                throw FlightErrors.withReason(flight);
            }
            throw e;
        }
        LandedBatches batches = new LandedBatches(stream, target, allocator, devices, what, bytesReceived, connection);
        try {
            return DeviceArrayStream.of(schema, target.type(), batches);
        } catch (RuntimeException | Error e) {
            batches.close();
            throw e;
        }
    }

    /** Closes {@code resource} if not null, adding what closing throws to {@code failure}. */
    static void closeQuietly(AutoCloseable resource, Throwable failure) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
