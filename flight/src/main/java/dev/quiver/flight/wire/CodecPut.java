package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.FlightCompression;
import dev.quiver.type.Field;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.StatusUtils;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The client's {@code DoPut} on Quiver's data path: the schema message (with the descriptor, a path of one
 * element), then each host batch's dictionaries and record batch, encoded from the batch's memory
 * ({@link FlightDataEncoder}) and handed to gRPC without a copy, then the end of the stream; the server's
 * acknowledgements are read as they come and the first one's {@code app_metadata} returned. Any Flight server
 * reads it: the bytes are Flight's protocol.
 *
 * <p><b>Copies per body byte.</b> None in the JVM for a batch in host memory (gRPC's netty buffer chain takes the
 * batch's buffers; the kernel copies once into the socket); a device batch is copied to the host first (the
 * batch source's job), or compressed into a new buffer when a codec is chosen.
 *
 * <p><b>Backpressure.</b> The calling thread waits before each message until gRPC is ready
 * ({@link MessageSending}). <b>Errors.</b> A server that ends the call early (a refused batch, an unknown name,
 * a dropped connection) stops the sending at the next message and is reported as the server's status; a source
 * that fails cancels the call. Either way every batch made and not sent is released.
 *
 * <p><b>Threading.</b> Stateless; {@link #put} runs on the calling thread, gRPC's handlers on its executor.
 */
public final class CodecPut {
    private CodecPut() {}

    /**
     * Sends one stream and waits for the server's acknowledgement.
     *
     * @param channel     the channel (with the interceptors the call options carry)
     * @param options     the call's options (credentials, deadline)
     * @param name        the stream's name, sent as the descriptor's path of one element
     * @param schema      the struct field of every batch
     * @param batches     the batches as host arrays; consumed and closed by this call
     * @param compression how the bodies of the batches sent are compressed
     * @return the {@code app_metadata} of the server's first acknowledgement, or null if it sent none
     * @throws FlightRuntimeException if the server ended the call with an error (its status, as Flight reports it)
     * @throws RuntimeException       what the batch source threw; the call is cancelled
     */
    public static byte[] put(Channel channel, CallOptions options, String name, Field schema, CodecDoGet.HostBatchSource batches,
                             FlightCompression compression) {
        MethodDescriptor<FlightMessage, Flight.PutResult> method = MethodDescriptor.<FlightMessage, Flight.PutResult>newBuilder()
                .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
                .setFullMethodName(FlightServiceGrpc.getDoPutMethod().getFullMethodName())
                .setRequestMarshaller(new FlightDataMarshaller(Devices.system().cpu(), FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES))
                .setResponseMarshaller(ProtoUtils.marshaller(Flight.PutResult.getDefaultInstance()))
                .build();
        Acknowledgements acknowledgements = new Acknowledgements();
        try (batches) {
            ClientCalls.asyncBidiStreamingCall(channel.newCall(method, options), acknowledgements);
            MessageSending sending = acknowledgements.sending;
            byte[] descriptor = Flight.FlightDescriptor.newBuilder().setType(Flight.FlightDescriptor.DescriptorType.PATH).addPath(name)
                    .build().toByteArray();
            boolean open = sending.send(List.of(FlightDataEncoder.schema(schema, descriptor)));
            try {
                for (DeviceArray next = open ? batches.next() : null; next != null; next = batches.next()) {
                    List<OutgoingMessage> messages;
                    try (DeviceArray batch = next) {
                        messages = FlightDataEncoder.batch(batch, true, null, compression);
                    }
                    if (!sending.send(messages)) {
                        break;
                    }
                }
            } catch (RuntimeException | Error e) {
                acknowledgements.requests.onError(e);
                throw e;
            }
            if (!sending.cancelled()) {
                acknowledgements.requests.onCompleted();
            }
            return acknowledgements.await();
        }
    }

    /** The server's side of the call: acknowledgements, and the end, on gRPC's executor. */
    private static final class Acknowledgements implements ClientResponseObserver<FlightMessage, Flight.PutResult> {
        private final CompletableFuture<byte[]> done = new CompletableFuture<>();
        private ClientCallStreamObserver<FlightMessage> requests;
        private MessageSending sending;
        private byte[] first;
        private boolean any;

        @Override
        public void beforeStart(ClientCallStreamObserver<FlightMessage> requestStream) {
            requests = requestStream;
            sending = new MessageSending(requestStream);
            requestStream.setOnReadyHandler(sending::signal);
        }

        @Override
        public void onNext(Flight.PutResult result) {
            if (!any) {
                any = true;
                first = result.getAppMetadata().toByteArray();
            }
        }

        @Override
        public void onError(Throwable t) {
            sending.cancel();
            done.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {
            sending.cancel();
            done.complete(any ? first : null);
        }

        byte[] await() {
            try {
                return done.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                requests.cancel("interrupted while waiting for the server's acknowledgement", e);
                throw new IllegalStateException("interrupted while waiting for the server's acknowledgement of a put", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof StatusRuntimeException status) {
                    throw StatusUtils.fromGrpcRuntimeException(status);
                }
                throw new IllegalStateException("the put failed: " + e.getCause(), e.getCause());
            }
        }
    }
}
