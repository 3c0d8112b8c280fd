package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.type.Field;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.StatusUtils;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The client's side of Quiver's data path: one Flight {@code DoGet} as a gRPC call with the codec's marshaller,
 * from any Flight server. gRPC's executor parses each message as it arrives, copying its body once from
 * netty's buffers into host memory of {@code landing} (see {@link FlightDataReader}); the caller's thread
 * checks and builds each batch ({@link FlightDataDecoder}). Two messages are requested ahead, so the next
 * message is received while the caller works on the one before; gRPC's flow control holds the server to that.
 *
 * <p><b>Trust boundary.</b> Every message is hostile until the decoder has checked it against the schema and
 * the body that arrived; a batch sent before the schema is refused at once.
 *
 * <p><b>Ownership.</b> Owns the call: {@link #close()} cancels it if it has not ended and releases every
 * message received and not taken. Batches {@link #next()} returns are the caller's and outlive this object.
 * <b>Threading.</b> {@link #awaitSchema}, {@link #next()} and {@link #close()} from one thread at a time;
 * {@link #bodyBytes()} any thread.
 */
public final class CodecFetch implements AutoCloseable {
    private static final Object END = new Object();
    private static final int AHEAD = 2;

    private final ClientCall<Flight.Ticket, FlightMessage> call;
    private final FlightDataDecoder decoder;
    private final LinkedBlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    private final String what;
    private volatile Status status;
    private volatile Metadata trailers;
    private volatile long bodyBytes;
    private boolean ended;
    private volatile boolean closed;

    private CodecFetch(ClientCall<Flight.Ticket, FlightMessage> call, Device landing, String what) {
        this.call = call;
        this.what = what;
        this.decoder = new FlightDataDecoder(landing, what);
    }

    /**
     * Starts the call.
     *
     * @param channel the channel (with the interceptors and credentials the call options carry)
     * @param options the call's options (credentials, deadline)
     * @param ticket  the ticket's bytes
     * @param landing a host-accessible device bodies land in
     * @param what    names the stream in messages
     * @return the fetch, owned by the caller
     */
    public static CodecFetch start(Channel channel, CallOptions options, byte[] ticket, Device landing, String what) {
        MethodDescriptor<Flight.Ticket, FlightMessage> method = MethodDescriptor.<Flight.Ticket, FlightMessage>newBuilder()
                .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
                .setFullMethodName(FlightServiceGrpc.getDoGetMethod().getFullMethodName())
                .setRequestMarshaller(ProtoUtils.marshaller(Flight.Ticket.getDefaultInstance()))
                .setResponseMarshaller(new FlightDataMarshaller(landing, FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES))
                .build();
        CodecFetch fetch = new CodecFetch(channel.newCall(method, options), landing, what);
        fetch.call.start(fetch.new Receiver(), new Metadata());
        fetch.call.sendMessage(Flight.Ticket.newBuilder().setTicket(com.google.protobuf.ByteString.copyFrom(ticket)).build());
        fetch.call.halfClose();
        fetch.call.request(AHEAD);
        return fetch;
    }

    /**
     * Waits for the stream's first message, which must be its schema.
     *
     * @param timeout how long the server may take
     * @return the struct field of the stream's batches
     * @throws InvalidFlightDataException if the first message is not a valid schema, or none came in time
     * @throws FlightRuntimeException     if the call failed before it (its status, as Flight reports it)
     */
    public Field awaitSchema(Duration timeout) {
        while (decoder.schema() == null) {
            Object item;
            try {
                item = arrived.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(what + ": interrupted while waiting for the schema", e);
            }
            if (item == null) {
                throw new InvalidFlightDataException(what + ": no schema arrived within " + timeout.toMillis()
                        + " ms: a Flight stream must start with its schema", null);
            }
            if (accept(item) != null) {
                throw new IllegalStateException("unreachable: the decoder hands out no batch before the schema");
            }
            if (ended) {
                throw new InvalidFlightDataException(what + ": the stream ended without a schema", null);
            }
        }
        return decoder.schema();
    }

    /**
     * {@return the next batch, a checked CPU struct array owned by the caller, or null at the end of the stream}
     * @throws InvalidFlightDataException if a message breaks the format; nothing of it is kept
     * @throws FlightRuntimeException     if the call failed (its status, as Flight reports it)
     */
    public DeviceArray next() {
        while (!ended) {
            Object item;
            try {
                item = arrived.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(what + ": interrupted while waiting for a message", e);
            }
            DeviceArray batch = accept(item);
            if (batch != null) {
                return batch;
            }
        }
        return null;
    }

    /** Decodes one item of the queue: a message (asking for the next), or the call's end. */
    private DeviceArray accept(Object item) {
        if (item == END) {
            ended = true;
            Status ending = status;
            if (ending.isOk()) {
                return null;
            }
            if (ending.getCause() instanceof InvalidFlightDataException invalid) {
                throw invalid;
            }
            throw StatusUtils.fromGrpcStatusAndTrailers(ending, trailers).toRuntimeException();
        }
        FlightMessage message = (FlightMessage) item;
        call.request(1);
        if (message instanceof ReceivedMessage received) {
            bodyBytes += received.bodyLength();
            return decoder.accept(received);
        }
        message.close();
        throw new IllegalStateException("the codec's marshaller parsed a message that was not received");
    }

    /** {@return body bytes received so far (padding included), for progress; any thread} */
    public long bodyBytes() {
        return bodyBytes;
    }

    /** Cancels the call unless it ended, and releases every message received and not taken; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!ended) {
            call.cancel("the consumer closed the stream", null);
        }
        for (Object item; (item = arrived.poll()) != null; ) {
            if (item instanceof FlightMessage message) {
                message.close();
            }
        }
        decoder.close();
    }

    /** gRPC's events, on its executor: messages and the end are queued for the caller. */
    private final class Receiver extends ClientCall.Listener<FlightMessage> {
        @Override
        public void onMessage(FlightMessage message) {
            if (closed) {
                message.close();
                return;
            }
            arrived.add(message);
            if (closed) {
                drainAfterClose();
            }
        }

        @Override
        public void onClose(Status ending, Metadata endingTrailers) {
            status = ending;
            trailers = endingTrailers;
            arrived.add(END);
            if (closed) {
                drainAfterClose();
            }
        }

        private void drainAfterClose() {
            for (Object item; (item = arrived.poll()) != null; ) {
                if (item instanceof FlightMessage message) {
                    message.close();
                }
            }
        }
    }
}
