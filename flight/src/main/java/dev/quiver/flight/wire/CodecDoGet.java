package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.flight.FlightCompression;
import dev.quiver.type.Field;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The server's side of Quiver's data path: Arrow Flight's gRPC service with {@code DoGet} registered with the
 * codec's marshaller, every other method left as it was. A ticket of a stream the codec serves is answered by
 * {@link StreamSending} (the batches encoded from host memory, written to gRPC without a copy); any other
 * ticket goes to the service's own {@code DoGet} (see {@link TicketRouting}). Used by
 * {@code dev.quiver.flight.DeviceFlightServer}; the wire format is Flight's, so any Flight client reads both.
 *
 * <p>Stateless; the definition it returns is thread-safe as gRPC requires.
 */
public final class CodecDoGet {
    private CodecDoGet() {}

    /**
     * A stream the codec serves: its name (for messages), its struct field, and how to open its host batches
     * for one call (on a thread of the server's executor).
     *
     * @param name   names the stream in messages
     * @param schema the struct field of every batch
     * @param open   opens the batches for one call, owned by that call
     */
    public record Served(String name, Field schema, Supplier<HostBatchSource> open) {
    }

    /**
     * The batches of one served stream on the host, in order.
     *
     * <p><b>Ownership.</b> The call that opened it closes it, which releases every batch not taken. Batches
     * {@link #next()} returns are the caller's. <b>Threading.</b> {@link #next()} and {@link #close()} from the
     * sending thread; {@link #stop()} from any thread.
     */
    public interface HostBatchSource extends AutoCloseable {
        /**
         * {@return the next batch, an open CPU struct array owned by the caller, or null at the end (or once stopped)}
         * @throws RuntimeException why the stream failed
         */
        DeviceArray next();

        /** Stops making batches without waiting; {@link #next()} returns null soon after. */
        void stop();

        /** Stops and releases every batch made and not taken. */
        @Override
        void close();
    }

    /**
     * Registers {@code DoGet} with the codec's marshaller in place of Flight's own, routed by ticket.
     *
     * @param flight   Flight's service as Arrow Java binds it ({@code FlightGrpcUtils.createFlightService(...).bindService()})
     * @param streams  the stream a ticket's bytes name, or null for a ticket the codec does not serve
     * @param executor runs each codec call's sending loop (one task per call, for the call's length)
     * @param compression how the bodies of the batches sent are compressed
     * @return the service with {@code DoGet} replaced, the same name and every other method unchanged
     * @throws IllegalArgumentException if {@code flight} is not Flight's service
     */
    public static ServerServiceDefinition replaceDoGet(ServerServiceDefinition flight, Function<byte[], Served> streams, Executor executor,
                                                      FlightCompression compression) {
        Objects.requireNonNull(compression, "compression");
        String doGetName = FlightServiceGrpc.getDoGetMethod().getFullMethodName();
        ServerMethodDefinition<?, ?> arrowJava = flight.getMethod(doGetName);
        if (arrowJava == null) {
            throw new IllegalArgumentException("the service " + flight.getServiceDescriptor().getName() + " has no " + doGetName);
        }
        MethodDescriptor<Flight.Ticket, FlightMessage> method = MethodDescriptor.<Flight.Ticket, FlightMessage>newBuilder()
                .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
                .setFullMethodName(doGetName)
                .setRequestMarshaller(ProtoUtils.marshaller(Flight.Ticket.getDefaultInstance()))
                .setResponseMarshaller(new FlightDataMarshaller(dev.quiver.Devices.system().cpu(), FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES))
                .build();
        ServerCallHandler<Flight.Ticket, FlightMessage> codec = ServerCalls.asyncServerStreamingCall((ticket, replies) -> {
            Served served = streams.apply(ticket.getTicket().toByteArray());
            StreamSending.start(served, (ServerCallStreamObserver<FlightMessage>) replies, executor, compression);
        });
        ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(flight.getServiceDescriptor().getName());
        for (ServerMethodDefinition<?, ?> definition : flight.getMethods()) {
            if (!definition.getMethodDescriptor().getFullMethodName().equals(doGetName)) {
                out.addMethod(definition);
            }
        }
        out.addMethod(method, routing(arrowJava, ticket -> streams.apply(ticket.getTicket().toByteArray()) != null, codec));
        return out.build();
    }

    @SuppressWarnings("unchecked")
    private static <R> TicketRouting<R> routing(ServerMethodDefinition<?, ?> arrowJava, java.util.function.Predicate<Flight.Ticket> ours,
                                                ServerCallHandler<Flight.Ticket, FlightMessage> codec) {
        ServerMethodDefinition<Flight.Ticket, R> typed = (ServerMethodDefinition<Flight.Ticket, R>) arrowJava;
        return new TicketRouting<>(ours, codec, typed.getMethodDescriptor(), typed.getServerCallHandler());
    }
}
