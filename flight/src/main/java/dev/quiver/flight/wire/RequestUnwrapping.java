package dev.quiver.flight.wire;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A call registered with one request type seen as a call of another method descriptor (Arrow Java's, whose
 * requests its handler gets already unwrapped, see {@link SchemaFirstPut}): replies are sent as they are and
 * everything else is passed on unchanged; only the descriptor differs.
 *
 * <p><b>Threading.</b> gRPC's rules for a {@link ServerCall}: one thread at a time for sending.
 *
 * @param <Q> the request type of the other descriptor
 * @param <R> the reply type, the same for both
 */
final class RequestUnwrapping<Q, R> extends ServerCall<Q, R> {
    private final ServerCall<?, R> call;
    private final MethodDescriptor<Q, R> method;

    /**
     * @param call   the call as registered
     * @param method the descriptor the handler expects
     */
    RequestUnwrapping(ServerCall<?, R> call, MethodDescriptor<Q, R> method) {
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
        call.sendMessage(message);
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
