package dev.quiver.flight;

import dev.quiver.flight.wire.CodecDoGet;
import dev.quiver.flight.wire.CodecDoPut;
import dev.quiver.flight.wire.SchemaFirstPut;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth.ServerAuthHandler;
import org.apache.arrow.flight.auth.ServerAuthInterceptor;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.grpc.ServerBackpressureThresholdInterceptor;
import org.apache.arrow.memory.BufferAllocator;

import java.io.File;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An Arrow Flight server whose {@code DoGet} of a {@link DeviceFlightProducer}'s streams and whose {@code DoPut}
 * run on Quiver's own data path ({@code dev.quiver.flight.wire}): each batch's buffers are written to gRPC from
 * host memory without a copy, and each body received is copied once from gRPC's buffers into Quiver memory and
 * checked there, never through Arrow Java's vectors or a heap array of the message's size. A put's first
 * message must be its schema (a batch first is refused at once with {@code INVALID_ARGUMENT}), and the stream
 * received lands on the producer's put device and is served under its name. Everything else is Arrow Java's
 * {@link FlightServer}: the other methods ({@code Handshake}, {@code ListFlights}, {@code GetFlightInfo},
 * {@code DoAction}, ...), tickets the producer did not issue (answered by the served producer's
 * {@code getStream}), TLS, header authentication, the executor and the message size limit. Clients see Flight's
 * protocol unchanged. With {@link Builder#served} a wrapping producer takes the puts through Arrow Java's
 * reader, with the schema-first rule kept before it starts ({@code SchemaFirstPut}).
 *
 * {@snippet :
 * try (DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("0.0.0.0", 8815), producer)
 *         .headerAuthenticator(FlightAuth.basicThenBearer("user", "secret"))
 *         .build().start()) {
 *     server.awaitTermination();
 * }
 * }
 *
 * <p><b>Ownership.</b> The server owns its executor unless one was given; {@link #close()} shuts the server
 * down, then waits (6 s at most) for the calls still running. The producer and allocator stay the caller's and
 * must outlive the server. <b>Threading.</b> Thread-safe.
 */
public final class DeviceFlightServer implements AutoCloseable {
    private final FlightServer server;
    private final ExecutorService ownedExecutor;

    private DeviceFlightServer(FlightServer server, ExecutorService ownedExecutor) {
        this.server = server;
        this.ownedExecutor = ownedExecutor;
    }

    /**
     * {@return a builder}
     * @param allocator charged for what Arrow Java's methods allocate (puts, plain streams); must outlive the server
     * @param location  where to listen, {@code grpc+tcp://host:port} or {@code grpc+tls://host:port} (port 0 for any)
     * @param producer  the streams served on Quiver's path, and every call unless {@link Builder#served} says otherwise
     */
    public static Builder builder(BufferAllocator allocator, Location location, DeviceFlightProducer producer) {
        return new Builder(allocator, location, producer);
    }

    /**
     * {@return this server, listening}
     * @throws IOException if it cannot bind
     */
    public DeviceFlightServer start() throws IOException {
        server.start();
        return this;
    }

    /** {@return the port it listens on} */
    public int getPort() {
        return server.getPort();
    }

    /** {@return where it listens, with the port it bound} */
    public Location getLocation() {
        return server.getLocation();
    }

    /** Stops taking calls; calls running go on. */
    public void shutdown() {
        server.shutdown();
    }

    /**
     * Waits until the server is shut down.
     *
     * @throws InterruptedException if interrupted
     */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    /**
     * {@return true if the server shut down within the time}
     * @param timeout the longest wait
     * @param unit    its unit
     * @throws InterruptedException if interrupted
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return server.awaitTermination(timeout, unit);
    }

    /** Shuts the server down (as {@link FlightServer#close()}), then ends its own executor, waiting 6 s at most. */
    @Override
    public void close() throws InterruptedException {
        try {
            server.close();
        } finally {
            if (ownedExecutor != null) {
                ownedExecutor.shutdown();
                ownedExecutor.awaitTermination(6, TimeUnit.SECONDS);
            }
        }
    }

    /** Server settings, as Arrow Java's {@link FlightServer.Builder} has them. One thread at a time. */
    public static final class Builder {
        private static final AtomicInteger SERVERS = new AtomicInteger();
        private final BufferAllocator allocator;
        private final Location location;
        private final DeviceFlightProducer producer;
        private FlightProducer served;
        private File certificateChain;
        private File privateKey;
        private CallHeaderAuthenticator authenticator;
        private ExecutorService executor;
        private int maxInboundMessageSize = Integer.MAX_VALUE;
        private FlightCompression compression = FlightCompression.NONE;

        private Builder(BufferAllocator allocator, Location location, DeviceFlightProducer producer) {
            this.allocator = Objects.requireNonNull(allocator, "allocator");
            this.location = Objects.requireNonNull(location, "location");
            this.producer = Objects.requireNonNull(producer, "producer");
            this.served = producer;
        }

        /**
         * Serves every call but the codec's {@code DoGet} through another producer, one that wraps the
         * {@link DeviceFlightProducer} (adding actions or streams of its own); tickets the {@code DeviceFlightProducer}
         * issued are still fetched on Quiver's path, and puts go to the wrapping producer's {@code acceptPut}
         * through Arrow Java's reader.
         *
         * @param wrapping the producer Arrow Java's methods call
         * @return this builder
         */
        public Builder served(FlightProducer wrapping) {
            this.served = Objects.requireNonNull(wrapping, "wrapping");
            return this;
        }

        /**
         * {@return this builder}
         * @param certificateChain PEM certificate chain, read by {@link #build()}
         * @param key              PEM private key, read by {@link #build()}
         */
        public Builder useTls(File certificateChain, File key) {
            this.certificateChain = Objects.requireNonNull(certificateChain, "certificateChain");
            this.privateKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * {@return this builder}
         * @param headerAuthenticator checks every call's headers before it reaches a producer (see {@link FlightAuth})
         */
        public Builder headerAuthenticator(CallHeaderAuthenticator headerAuthenticator) {
            this.authenticator = Objects.requireNonNull(headerAuthenticator, "headerAuthenticator");
            return this;
        }

        /**
         * {@return this builder}
         * @param callExecutor runs the calls (and each {@code DoGet}'s sending loop); stays the caller's
         */
        public Builder executor(ExecutorService callExecutor) {
            this.executor = Objects.requireNonNull(callExecutor, "callExecutor");
            return this;
        }

        /**
         * {@return this builder}
         * @param bytes the largest message a client may send (default: gRPC's largest, 2 GiB)
         */
        public Builder maxInboundMessageSize(int bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("the largest inbound message must be positive, not " + bytes);
            }
            this.maxInboundMessageSize = bytes;
            return this;
        }

        /**
         * Compresses the bodies of the record and dictionary batches this server's {@code DoGet} sends on Quiver's
         * path (streams of the {@link DeviceFlightProducer}); calls served by a wrapping producer's own
         * {@code DoGet} are not affected. A Quiver client reads either codec with no option; a plain Arrow Java
         * {@code FlightClient} reads it with the {@code arrow-compression} module on its class path (see
         * {@link FlightCompression}).
         * Compression pays where the link is slower than the codec, and costs time on a fast one.
         *
         * @param compression how sent bodies are compressed (default: {@link FlightCompression#NONE})
         * @return this builder
         */
        public Builder compression(FlightCompression compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
            return this;
        }

        /**
         * {@return the server, not started yet}
         * @throws IOException if the TLS files cannot be read
         */
        public DeviceFlightServer build() throws IOException {
            ExecutorService owned = executor == null ? Executors.newCachedThreadPool(Thread.ofPlatform().daemon()
                    .name("quiver-flight-server-" + SERVERS.incrementAndGet() + "-", 0).factory()) : null;
            ExecutorService calls = executor == null ? owned : executor;
            try {
                FlightServer.Builder flight = FlightServer.builder(allocator, location, served).executor(calls)
                        .maxInboundMessageSize(maxInboundMessageSize);
                if (certificateChain != null) {
                    flight.useTls(certificateChain, privateKey);
                }
                if (authenticator != null) {
                    flight.headerAuthenticator(authenticator);
                }
                ServerServiceDefinition arrowJava = FlightGrpcUtils.createFlightService(allocator, served, ServerAuthHandler.NO_OP, calls).bindService();
                ServerServiceDefinition withGet = CodecDoGet.replaceDoGet(arrowJava, producer::codecStream, calls, compression);
                // puts go to the producer on Quiver's path; a wrapping producer keeps Arrow Java's, checked for a schema first
                ServerServiceDefinition replaced = served == producer ? CodecDoPut.replaceDoPut(withGet, new ProducerPuts(producer))
                        : SchemaFirstPut.replaceDoPut(withGet);
                ServerServiceDefinition codec = ServerInterceptors.intercept(replaced,
                        new ServerBackpressureThresholdInterceptor(FlightServer.DEFAULT_BACKPRESSURE_THRESHOLD),
                        new ServerAuthInterceptor(ServerAuthHandler.NO_OP));
                // Arrow Java's builder adds its service first, then hands gRPC's builder over: a service added under
                // the same name replaces it, and the server's interceptors (authentication, headers) apply to it alike.
                Consumer<NettyServerBuilder> replace = netty -> netty.addService(codec);
                flight.transportHint("grpc.builderConsumer", replace);
                return new DeviceFlightServer(flight.build(), owned);
            } catch (IOException | RuntimeException | Error e) {
                if (owned != null) {
                    owned.shutdownNow();
                }
                throw e;
            }
        }
    }
}
