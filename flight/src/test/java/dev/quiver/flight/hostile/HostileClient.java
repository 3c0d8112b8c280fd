package dev.quiver.flight.hostile;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A Flight client that puts whatever messages it is given, as they are, over plain gRPC: what a hostile
 * peer can send a server. Test code only; one put at a time per client.
 */
public final class HostileClient implements AutoCloseable {
    private final ManagedChannel channel;

    /** @param port a Flight server on 127.0.0.1 */
    public HostileClient(int port) {
        this.channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    }

    /**
     * Puts the messages and waits for the server's answer.
     *
     * @param messages the messages, the first one with a descriptor
     * @return the call's status: OK if the server took the put
     */
    public Status put(List<Flight.FlightData> messages) throws Exception {
        CompletableFuture<Status> done = new CompletableFuture<>();
        StreamObserver<Flight.FlightData> requests = FlightServiceGrpc.newStub(channel).doPut(new StreamObserver<>() {
            @Override
            public void onNext(Flight.PutResult value) {
                // the ticket the server issued; the status is what the tests look at
            }

            @Override
            public void onError(Throwable t) {
                done.complete(Status.fromThrowable(t));
            }

            @Override
            public void onCompleted() {
                done.complete(Status.OK);
            }
        });
        for (Flight.FlightData message : messages) {
            requests.onNext(message);
        }
        requests.onCompleted();
        return done.get(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
}
