package dev.quiver.flight;

import io.grpc.Channel;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

/**
 * Flight's call options as gRPC's: a stub on a channel that carries every option Arrow Java can apply to one
 * (credentials, deadline, headers), whose {@code getChannel()} and {@code getCallOptions()} start a call of the
 * codec's data path as Arrow Java's own client would. Stateless.
 */
final class CallStubs {
    private CallStubs() {}

    /**
     * @param channel the client's channel
     * @param options the call's options, the client's credentials among them
     * @return a stub with every option applied
     */
    static FlightServiceGrpc.FlightServiceStub of(Channel channel, CallOption[] options) {
        FlightServiceGrpc.FlightServiceStub stub = FlightServiceGrpc.newStub(channel);
        for (CallOption option : options) {
            if (option instanceof CallOptions.GrpcCallOption grpc) {
                stub = grpc.wrapStub(stub);
            }
        }
        return stub;
    }

    /** {@return the client's options followed by the call's} */
    static CallOption[] concat(CallOption[] client, CallOption[] call) {
        CallOption[] all = java.util.Arrays.copyOf(client, client.length + call.length);
        System.arraycopy(call, 0, all, client.length, call.length);
        return all;
    }
}
