package dev.quiver.flight.wire;

import dev.quiver.Device;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Flight's {@code DoGet} over real gRPC-java netty transports with the codec's marshaller: a server that
 * answers every ticket with the messages a supplier makes, and a client call that reads a stream's messages.
 * Plain Arrow Java peers on the other side see the protocol unchanged.
 */
final class WireGrpc {
    private WireGrpc() {}

    /** {@return Flight's DoGet with the codec's marshaller for its replies, landing bodies on {@code device}} */
    static MethodDescriptor<Flight.Ticket, FlightMessage> doGet(MethodDescriptor.Marshaller<FlightMessage> marshaller) {
        return MethodDescriptor.<Flight.Ticket, FlightMessage>newBuilder()
                .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(FlightServiceGrpc.SERVICE_NAME, "DoGet"))
                .setRequestMarshaller(ProtoUtils.marshaller(Flight.Ticket.getDefaultInstance()))
                .setResponseMarshaller(marshaller)
                .build();
    }

    /** {@return a started loopback server whose DoGet sends the messages {@code messages} makes for each call} */
    static Server serve(Device device, Supplier<List<OutgoingMessage>> messages) throws IOException {
        return serve(device, messages, null);
    }

    /**
     * {@return a started loopback server as {@link #serve(Device, Supplier)}, adding to {@code sendHeap} (when not
     * null) the heap the handler's thread allocated while gRPC took each message after the first two}
     */
    static Server serve(Device device, Supplier<List<OutgoingMessage>> messages, java.util.concurrent.atomic.AtomicLong sendHeap) throws IOException {
        MethodDescriptor<Flight.Ticket, FlightMessage> method = doGet(new FlightDataMarshaller(device, FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES));
        ServerServiceDefinition service = ServerServiceDefinition.builder(FlightServiceGrpc.SERVICE_NAME)
                .addMethod(method, ServerCalls.asyncServerStreamingCall((Flight.Ticket ticket, StreamObserver<FlightMessage> replies) -> {
                    int index = 0;
                    for (OutgoingMessage message : messages.get()) {
                        long before = HeapCount.allocated();
                        replies.onNext(message);
                        if (sendHeap != null && index++ >= 2) {
                            sendHeap.addAndGet(HeapCount.allocated() - before);
                        }
                    }
                    replies.onCompleted();
                }))
                .build();
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build().start();
    }

    /** {@return a plaintext loopback channel to {@code port}} */
    static ManagedChannel channel(int port) {
        return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().maxInboundMessageSize(Integer.MAX_VALUE).build();
    }

    /** {@return the messages of a DoGet, read with {@code marshaller}, as they arrive} */
    static Iterator<FlightMessage> get(ManagedChannel channel, MethodDescriptor.Marshaller<FlightMessage> marshaller) {
        return ClientCalls.blockingServerStreamingCall(channel, doGet(marshaller), CallOptions.DEFAULT,
                Flight.Ticket.newBuilder().setTicket(com.google.protobuf.ByteString.copyFromUtf8("any")).build());
    }
}
