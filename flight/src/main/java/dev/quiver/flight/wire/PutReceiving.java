package dev.quiver.flight.wire;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.flight.InvalidFlightDataException;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.StatusUtils;
import org.apache.arrow.flight.impl.Flight;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One {@code DoPut} on the codec's path (see {@link CodecDoPut}), as gRPC's listener of the call. The first
 * message must be the schema with a descriptor naming the stream: a batch first is refused at once with
 * {@code INVALID_ARGUMENT} ({@link SchemaFirstPut#REFUSAL}), and so is a put whose schema has not come within
 * the target's schema timeout. Each later message is decoded and checked as it arrives; one message is asked
 * for at a time, so gRPC's flow control holds the client to the message being checked.
 *
 * <p><b>Errors.</b> A message that breaks the format ends the call with {@code INVALID_ARGUMENT} naming it; a
 * failure to land ends it with {@code INTERNAL} naming the stream and the device. Either way every batch
 * received is released at once, as are messages that arrive after the end. A cancelled call releases the same.
 *
 * <p><b>Ownership.</b> Owns the decoder and the batches received until the target takes them at the end of the
 * stream. <b>Threading.</b> gRPC calls the listener on the call's serializing executor; the schema timeout
 * fires on another thread; both hold this object's lock, so the call is used by one thread at a time.
 */
final class PutReceiving extends ServerCall.Listener<FlightMessage> {
    private final ServerCall<FlightMessage, Flight.PutResult> call;
    private final CodecDoPut.PutTarget target;
    private final List<DeviceArray> landed = new ArrayList<>();
    private FlightDataDecoder decoder;
    private String name;
    private boolean ended;

    private PutReceiving(ServerCall<FlightMessage, Flight.PutResult> call, CodecDoPut.PutTarget target) {
        this.call = call;
        this.target = target;
    }

    /** {@return the listener of a new call, which has asked for its first message and set its schema timeout} */
    static PutReceiving start(ServerCall<FlightMessage, Flight.PutResult> call, CodecDoPut.PutTarget target) {
        PutReceiving receiving = new PutReceiving(call, target);
        long timeout = target.schemaTimeout().toMillis();
        CompletableFuture.delayedExecutor(timeout, TimeUnit.MILLISECONDS).execute(() -> receiving.schemaDue(timeout));
        call.request(1);
        return receiving;
    }

    @Override
    public synchronized void onMessage(FlightMessage message) {
        if (ended || !(message instanceof ReceivedMessage received)) {
            message.close();
            return;
        }
        try {
            if (decoder == null) {
                first(received);
            }
            target.bodyReceived(received.bodyLength());
            DeviceArray batch = decoder.accept(received);
            if (batch != null) {
                landed.add(onTarget(batch));
            }
            call.request(1);
        } catch (InvalidFlightDataException e) {
            fail(Status.INVALID_ARGUMENT, e.getMessage(), e);
        } catch (FlightRuntimeException e) {
            fail(StatusUtils.toGrpcStatus(e.status()), e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            fail(Status.INTERNAL, "landing " + (name == null ? "a put" : name) + " on " + target.device() + " failed: " + e.getMessage(), e);
        } finally {
            received.close();
        }
    }

    /** Checks that the first message is a schema and names the stream, then starts the decoder. */
    private void first(ReceivedMessage message) {
        Message header = HeaderReading.message(message.header(), "put: the first message");
        if (header.headerType() != MessageHeader.Schema) {
            throw new InvalidFlightDataException(SchemaFirstPut.REFUSAL, null);
        }
        if (message.descriptor() == null) {
            throw new InvalidFlightDataException("put: the schema message carries no FlightDescriptor: a put names its stream in its first message", null);
        }
        Flight.FlightDescriptor descriptor;
        try {
            descriptor = Flight.FlightDescriptor.parseFrom(message.descriptor());
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidFlightDataException("put: the schema message's FlightDescriptor is not one: " + e.getMessage(), e);
        }
        try {
            name = target.name(descriptor);
        } catch (IllegalArgumentException e) {
            throw new InvalidFlightDataException(e.getMessage(), e);
        }
        decoder = new FlightDataDecoder(dev.quiver.Devices.system().cpu(), "put " + name);
    }

    /** @return the batch itself on the CPU, else its copy on the target (the host batch kept until the copy is done) */
    private DeviceArray onTarget(DeviceArray batch) {
        if (target.device().type().equals(DeviceType.CPU)) {
            return batch;
        }
        try (batch) {
            return Copies.toDevice(batch, target.device(), target.device().defaultStream());
        }
    }

    @Override
    public synchronized void onHalfClose() {
        if (ended) {
            return;
        }
        if (decoder == null) {
            fail(Status.INVALID_ARGUMENT, "put: the stream ended without a schema: a Flight stream must start with its schema", null);
            return;
        }
        ended = true;
        List<DeviceArray> batches = new ArrayList<>(landed);
        landed.clear();
        byte[] acknowledgement;
        try {
            acknowledgement = target.received(name, decoder.schema(), batches);
        } catch (FlightRuntimeException e) {
            release();
            call.close(StatusUtils.toGrpcStatus(e.status()).withDescription(e.getMessage()), new Metadata());
            return;
        } catch (RuntimeException | Error e) {
            release();
            call.close(Status.INTERNAL.withDescription("keeping " + name + " failed: " + e.getMessage()).withCause(e), new Metadata());
            return;
        }
        release();
        call.sendHeaders(new Metadata());
        call.sendMessage(Flight.PutResult.newBuilder().setAppMetadata(ByteString.copyFrom(acknowledgement)).build());
        call.close(Status.OK, new Metadata());
    }

    @Override
    public synchronized void onCancel() {
        ended = true;
        release();
    }

    @Override
    public synchronized void onComplete() {
        ended = true;
        release();
    }

    /** Refuses a put that has not sent its schema in time. */
    private synchronized void schemaDue(long timeoutMillis) {
        if (!ended && (decoder == null || decoder.schema() == null)) {
            fail(Status.INVALID_ARGUMENT, "put: no schema arrived within " + timeoutMillis + " ms: a Flight stream must start with its schema", null);
        }
    }

    private void fail(Status status, String description, Throwable cause) {
        ended = true;
        release();
        call.close(status.withDescription(description).withCause(cause), new Metadata());
    }

    /** Closes every batch received and not handed over, and the decoder. */
    private void release() {
        landed.forEach(DeviceArray::close);
        landed.clear();
        if (decoder != null) {
            decoder.close();
        }
    }
}
