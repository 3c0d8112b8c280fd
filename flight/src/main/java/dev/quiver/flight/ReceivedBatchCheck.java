package dev.quiver.flight;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.arrowjava.ArrowJavaSchemas;
import dev.quiver.type.Field;
import dev.quiver.Devices;
import dev.quiver.InvalidArrowException;
import dev.quiver.arrowjava.VectorExport;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * What arrives over Flight is untrusted: each batch Arrow Java reads from a stream is checked as an
 * untrusted import before anything else sees it. Arrow Java's reader sizes each buffer from the message and
 * the body that arrived, but reaches Quiver through the C Data interface, which carries no sizes and lets the
 * batch's own offsets size its data; so the whole batch is validated ({@link Interchange#validateFull(dev.quiver.DeviceArray, java.util.function.ToLongFunction)}:
 * structs, lengths, offsets, view buffers and lengths, union type ids, dictionary indexes, run ends, UTF-8)
 * with every size it implies checked against the buffer that arrived before a byte of it is read
 * ({@link VectorExport#toValidatedDeviceArray}).
 *
 * <p>Stateless; called on a stream's receiving thread.
 */
final class ReceivedBatchCheck {
    private ReceivedBatchCheck() {}

    /**
     * Reads the next batch of a stream and hands it over as a checked CPU array.
     *
     * @param stream    the Flight stream, read by the calling thread only
     * @param allocator pays for the export's structures
     * @param devices   the registry of the array
     * @param what      names the stream in messages
     * @param index     the batch's position in the stream, for messages
     * @return the batch, owned by the caller, or null at the end of the stream
     * @throws InvalidFlightDataException if the message cannot be read or the batch breaks the format; nothing
     *                                    of it is kept
     * @throws FlightRuntimeException     if the call failed (its status says how)
     */
    static DeviceArray next(FlightStream stream, BufferAllocator allocator, Devices devices, String what, long index) {
        try {
            if (!stream.next()) {
                return null;
            }
        } catch (RuntimeException e) {
            throw refusal(e, what + ": message of batch " + index + " could not be read");
        }
        return checked(stream, allocator, devices, what + ": batch " + index);
    }

    /**
     * Exports the stream's current root (its schema alone before the first batch) and checks it.
     *
     * @param stream    a Flight stream positioned on a batch, or before its first
     * @param allocator pays for the export's structures
     * @param devices   the registry of the array
     * @param what      names the batch in messages
     * @return the checked CPU array, owned by the caller
     * @throws InvalidFlightDataException if the batch breaks the format; nothing of it is kept
     */
    static DeviceArray checked(FlightStream stream, BufferAllocator allocator, Devices devices, String what) {
        try {
            return VectorExport.toValidatedDeviceArray(stream.getRoot(), stream.getDictionaryProvider(), allocator, devices);
        } catch (RuntimeException e) {
            throw refusal(e, what + " refused");
        }
    }

    /**
     * Reads the stream's schema, as its batches will carry it, from Arrow Java's {@code Schema} (no batch is
     * exported: Arrow Java's C Data module writes the schema alone and Quiver reads it with every check of an import).
     *
     * @param stream    a Flight stream whose schema has arrived
     * @param allocator pays for the transient C struct
     * @param what      names the schema in messages
     * @return the struct field of the stream's batches
     * @throws InvalidFlightDataException if the schema breaks the format or lacks a dictionary it names
     */
    static Field schema(FlightStream stream, BufferAllocator allocator, String what) {
        try {
            return ArrowJavaSchemas.toField(stream.getRoot().getSchema(), stream.getDictionaryProvider(), allocator);
        } catch (RuntimeException e) {
            throw refusal(e, what + " refused");
        }
    }

    /**
     * What to throw for a failure while reading or checking: the call's own failure and the allocator's
     * refusal as they are; a message gRPC could not parse (its client cancels the call with {@code CANCELLED}
     * and {@code "Failed to read message."} when Arrow Java's parser throws), or anything Arrow Java's reader
     * or Quiver's check threw, as an {@link InvalidFlightDataException}.
     *
     * @param failure what was thrown
     * @param context what was being done, for the message
     * @return the exception to throw
     */
    private static RuntimeException refusal(RuntimeException failure, String context) {
        return switch (failure) {
            case FlightRuntimeException call when call.status().code() == FlightStatusCode.CANCELLED
                    && "Failed to read message.".equals(call.status().description()) ->
                    new InvalidFlightDataException(context + ": it could not be parsed: " + call.getMessage(), call);
            case FlightRuntimeException call -> call;
            case OutOfMemoryException memory -> memory;
            case InvalidArrowException invalid -> new InvalidFlightDataException(context + ": " + invalid.getMessage(), invalid);
            default -> new InvalidFlightDataException(context + ": " + failure, failure);
        };
    }
}
