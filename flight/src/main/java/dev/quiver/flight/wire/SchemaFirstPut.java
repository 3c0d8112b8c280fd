package dev.quiver.flight.wire;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

/**
 * Flight's {@code DoPut} with the rule that a stream starts with its schema enforced as the first message
 * arrives: a put whose first message is a RecordBatch or DictionaryBatch is ended at once with
 * {@code INVALID_ARGUMENT} (naming the rule), and that message is released; Arrow Java's handler, and with it
 * the producer's {@code acceptPut} and its wait for a schema, never start. Any other first message starts Arrow
 * Java's handler, which then gets every message of the call as before (see {@link PutPeeking}). Used by
 * {@code dev.quiver.flight.DeviceFlightServer}; the wire format is Flight's.
 *
 * <p><b>Threading.</b> Stateless; gRPC calls each call's listener on the call's serializing executor.
 */
public final class SchemaFirstPut {
    /** What a refused put is told. */
    static final String REFUSAL = "put: a batch came before the stream's Schema message: a Flight stream must start with its schema";

    private SchemaFirstPut() {}

    /**
     * Registers {@code DoPut} with a marshaller that looks at each message's header, in place of Flight's own.
     *
     * @param flight Flight's service as Arrow Java binds it (possibly with other methods already replaced)
     * @return the service with {@code DoPut} replaced, the same name and every other method unchanged
     * @throws IllegalArgumentException if {@code flight} has no {@code DoPut}
     */
    public static ServerServiceDefinition replaceDoPut(ServerServiceDefinition flight) {
        String doPutName = FlightServiceGrpc.getDoPutMethod().getFullMethodName();
        ServerMethodDefinition<?, ?> arrowJava = flight.getMethod(doPutName);
        if (arrowJava == null) {
            throw new IllegalArgumentException("the service " + flight.getServiceDescriptor().getName() + " has no " + doPutName);
        }
        ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(flight.getServiceDescriptor().getName());
        for (ServerMethodDefinition<?, ?> definition : flight.getMethods()) {
            if (!definition.getMethodDescriptor().getFullMethodName().equals(doPutName)) {
                out.addMethod(definition);
            }
        }
        out.addMethod(checked(arrowJava));
        return out.build();
    }

    private static <Q, R> ServerMethodDefinition<PutPeeking.Inbound<Q>, R> checked(ServerMethodDefinition<Q, R> arrowJava) {
        MethodDescriptor<Q, R> method = arrowJava.getMethodDescriptor();
        MethodDescriptor<PutPeeking.Inbound<Q>, R> peeking = method.toBuilder(new PutPeeking<>(method.getRequestMarshaller()),
                method.getResponseMarshaller()).build();
        return ServerMethodDefinition.create(peeking, new FirstMessageCheck<>(method, arrowJava.getServerCallHandler()));
    }

    /** Starts Arrow Java's handler at the first message, unless that message is a batch. */
    private record FirstMessageCheck<Q, R>(MethodDescriptor<Q, R> method, ServerCallHandler<Q, R> arrowJava)
            implements ServerCallHandler<PutPeeking.Inbound<Q>, R> {
        @Override
        public ServerCall.Listener<PutPeeking.Inbound<Q>> startCall(ServerCall<PutPeeking.Inbound<Q>, R> call, Metadata headers) {
            call.request(1);
            return new ChosenListener<PutPeeking.Inbound<Q>, Q>() {
                private boolean refused;

                @Override
                public void onMessage(PutPeeking.Inbound<Q> inbound) {
                    if (chosen == null && !refused && inbound.batch()) {
                        refused = true;
                        String released = release(inbound.message());
                        call.close(Status.INVALID_ARGUMENT.withDescription(REFUSAL + released), new Metadata());
                    } else if (refused) {
                        release(inbound.message());
                    } else {
                        start().onMessage(inbound.message());
                    }
                }

                private ServerCall.Listener<Q> start() {
                    if (chosen == null) {
                        chosen = arrowJava.startCall(new RequestUnwrapping<>(call, method), headers);
                    }
                    return chosen;
                }

                @Override
                public void onHalfClose() {
                    if (!refused) {
                        start().onHalfClose();
                    }
                }
            };
        }
    }

    /** Closes a refused message; {@return "" or, if closing failed, why, for the refusal's description} */
    private static String release(Object message) {
        if (message instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                return " (releasing the batch failed: " + e + ")";
            }
        }
        return "";
    }
}
