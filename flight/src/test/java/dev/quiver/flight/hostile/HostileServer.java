package dev.quiver.flight.hostile;

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A Flight server that answers every {@code DoGet}, whatever the ticket, with the messages it is given, as
 * they are, over plain gRPC: what a hostile server can send a client. Test code only; thread-safe.
 */
public final class HostileServer implements AutoCloseable {
    private final Server server;

    /** @param messages what each DoGet sends, made anew for each call */
    public HostileServer(Supplier<List<Flight.FlightData>> messages) throws IOException {
        this.server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new FlightServiceGrpc.FlightServiceImplBase() {
                    @Override
                    public void doGet(Flight.Ticket request, StreamObserver<Flight.FlightData> responses) {
                        messages.get().forEach(responses::onNext);
                        responses.onCompleted();
                    }
                })
                .build().start();
    }

    /** @return where clients reach it */
    public Location location() {
        return Location.forGrpcInsecure("127.0.0.1", server.getPort());
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
}
