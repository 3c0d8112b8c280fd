package dev.quiver.flight.wire;

import io.grpc.ForwardingServerCall;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;

/**
 * A {@code DoGet} call on the codec's marshaller seen as a call of another method descriptor (Arrow Java's,
 * whose replies are its own message type): each reply is encoded by that descriptor's marshaller at once and
 * sent as an {@link EncodedMessage}, so a handler written for Arrow Java's descriptor serves through a method
 * registered with the codec's. Everything else is passed on unchanged ({@link ForwardingServerCall}).
 *
 * <p><b>Threading.</b> gRPC's rules for a {@link ServerCall}: one thread at a time for sending.
 *
 * @param <Q> the request type, the same for both descriptors
 * @param <R> the reply type of the other descriptor
 */
final class ReplyEncoding<Q, R> extends ForwardingServerCall<Q, R> {
    private final ServerCall<Q, FlightMessage> call;
    private final MethodDescriptor<Q, R> method;

    /**
     * @param call   the call as registered, with the codec's marshaller
     * @param method the descriptor whose marshaller encodes the replies
     */
    ReplyEncoding(ServerCall<Q, FlightMessage> call, MethodDescriptor<Q, R> method) {
        this.call = call;
        this.method = method;
    }

    @Override
    @SuppressWarnings("unchecked")   // every method typed by the reply (sendMessage, getMethodDescriptor) is overridden
    protected ServerCall<Q, R> delegate() {
        return (ServerCall<Q, R>) (ServerCall<?, ?>) call;
    }

    @Override
    public void sendMessage(R message) {
        call.sendMessage(new EncodedMessage(method.streamResponse(message)));
    }

    @Override
    public MethodDescriptor<Q, R> getMethodDescriptor() {
        return method;
    }
}
