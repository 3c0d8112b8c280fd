package dev.quiver.flight;

import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A Flight server in the test JVM on a free loopback port, for tests that need a producer of their own. Closing
 * it shuts the server down.
 */
final class LocalFlightServer implements AutoCloseable {
    private final FlightServer server;

    LocalFlightServer(BufferAllocator allocator, FlightProducer producer) {
        try {
            this.server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return where it listens */
    Location location() {
        return Location.forGrpcInsecure("127.0.0.1", server.getPort());
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdown();
        server.awaitTermination();
    }
}
