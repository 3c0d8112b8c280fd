package dev.quiver.flight.wire;

import io.grpc.ForwardingServerCall;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;

/**
 * A call registered with one request type seen as a call of another method descriptor (Arrow Java's, whose
 * requests its handler gets already unwrapped, see {@link SchemaFirstPut}): replies are sent as they are and
 * everything else is passed on unchanged ({@link ForwardingServerCall}); only the descriptor differs.
 *
 * <p><b>Threading.</b> gRPC's rules for a {@link ServerCall}: one thread at a time for sending.
 *
 * @param <Q> the request type of the other descriptor
 * @param <R> the reply type, the same for both
 */
final class RequestUnwrapping<Q, R> extends ForwardingServerCall<Q, R> {
    private final ServerCall<Q, R> call;
    private final MethodDescriptor<Q, R> method;

    /**
     * @param call   the call as registered
     * @param method the descriptor the handler expects
     */
    @SuppressWarnings("unchecked")   // a ServerCall takes no request: only getMethodDescriptor names their type
    RequestUnwrapping(ServerCall<?, R> call, MethodDescriptor<Q, R> method) {
        this.call = (ServerCall<Q, R>) call;
        this.method = method;
    }

    @Override
    protected ServerCall<Q, R> delegate() {
        return call;
    }

    @Override
    public MethodDescriptor<Q, R> getMethodDescriptor() {
        return method;
    }
}
