package dev.quiver.flight.wire;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A {@code DoGet} call on the codec's marshaller seen as a call of another method descriptor (Arrow Java's,
 * whose replies are its own message type): each reply is encoded by that descriptor's marshaller at once and
 * sent as an {@link EncodedMessage}, so a handler written for Arrow Java's descriptor serves through a method
 * registered with the codec's. Everything else is passed on unchanged.
 *
 * <p><b>Threading.</b> gRPC's rules for a {@link ServerCall}: one thread at a time for sending.
 *
 * @param <Q> the request type, the same for both descriptors
 * @param <R> the reply type of the other descriptor
 */
final class ReplyEncoding<Q, R> extends ServerCall<Q, R> {
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
    public void request(int numMessages) {
        call.request(numMessages);
    }

    @Override
    public void sendHeaders(Metadata headers) {
        call.sendHeaders(headers);
    }

    @Override
    public void sendMessage(R message) {
        call.sendMessage(new EncodedMessage(method.streamResponse(message)));
    }

    @Override
    public boolean isReady() {
        return call.isReady();
    }

    @Override
    public void close(Status status, Metadata trailers) {
        call.close(status, trailers);
    }

    @Override
    public boolean isCancelled() {
        return call.isCancelled();
    }

    @Override
    public void setMessageCompression(boolean enabled) {
        call.setMessageCompression(enabled);
    }

    @Override
    public void setCompression(String compressor) {
        call.setCompression(compressor);
    }

    @Override
    public void setOnReadyThreshold(int numBytes) {
        call.setOnReadyThreshold(numBytes);
    }

    @Override
    public SecurityLevel getSecurityLevel() {
        return call.getSecurityLevel();
    }

    @Override
    public Attributes getAttributes() {
        return call.getAttributes();
    }

    @Override
    public String getAuthority() {
        return call.getAuthority();
    }

    @Override
    public MethodDescriptor<Q, R> getMethodDescriptor() {
        return method;
    }
}
