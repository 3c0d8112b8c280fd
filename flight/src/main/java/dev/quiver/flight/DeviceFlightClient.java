package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import io.grpc.ManagedChannel;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.grpc.NettyClientBuilder;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;

import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A client of an Arrow Flight server (any, not only Quiver's) that fetches streams onto a chosen device and
 * sends device streams: {@link #get} lands every batch on the target device, receiving batch n+1 while batch
 * n is copied to the device; {@link #put} copies each batch to the host one batch ahead of the network.
 *
 * <p><b>Data path.</b> {@code DoGet} runs on Quiver's own codec ({@code dev.quiver.flight.wire}), from any Flight
 * server: each message's body is copied once, from gRPC's receive buffers into Quiver host memory, checked
 * there, and handed over on the CPU or uploaded to the target on its default stream (overlapping the next
 * message where the target has events), never through Arrow Java's vectors or a heap array of the message's
 * size. {@code DoPut} runs on the codec too: each batch's buffers are written to gRPC from host memory
 * without a copy in the JVM, optionally compressed ({@link Builder#compression}).
 *
 * <p><b>Ownership.</b> The client owns its connection and closes it in {@link #close()}. Streams from
 * {@link #get} belong to the caller and must be closed before the client (closing one early cancels its
 * call). Arrays a stream hands out belong to the caller and outlive the stream; an array landed on the CPU
 * lives in Quiver's host memory, not the {@code allocator}'s. {@link #put} takes the stream it sends.
 *
 * <p><b>Threading.</b> The client may be shared by threads; each {@code get} runs on the calling thread and
 * gRPC's executor (which receives the next message meanwhile), each {@code put} on the calling thread plus one
 * helper thread that copies to the host.
 *
 * <p><b>Security.</b> A {@code grpc+tls} location uses TLS, trusting the certificates given to the builder
 * (else the JVM's). With {@link Builder#basicAuth} the client logs in once with the user and password and
 * sends the bearer token the server returns on every call; with {@link Builder#bearerToken} it sends a
 * token it already has.
 *
 * {@snippet :
 * try (BufferAllocator allocator = new RootAllocator();
 *      DeviceFlightClient client = DeviceFlightClient.builder(Location.forGrpcInsecure("localhost", 8815), allocator).build();
 *      DeviceArrayStream batches = client.get(ticket, Devices.system().get(DeviceType.OPENCL, 0))) {
 *     while (batches.hasNext()) {
 *         try (DeviceArray batch = batches.next()) { ... }   // on the OpenCL device
 *     }
 * }
 * }
 */
public final class DeviceFlightClient implements AutoCloseable {
    private final FlightClient client;
    private final ManagedChannel channel;
    private final BufferAllocator allocator;
    private final Devices devices;
    private final CallOption[] options;
    private final Duration schemaTimeout;
    private final AtomicLong bytesReceived = new AtomicLong();
    private final Duration sameHostTimeout;
    private final Location location;
    private final FlightCompression compression;
    private final Function<Location, DeviceFlightClient> peers;

    private DeviceFlightClient(FlightClient client, ManagedChannel channel, Location location, BufferAllocator allocator, Devices devices,
                               CallOption[] options, Duration schemaTimeout, Duration sameHostTimeout, FlightCompression compression,
                               Function<Location, DeviceFlightClient> peers) {
        this.client = client;
        this.compression = compression;
        this.peers = peers;
        this.location = location;
        this.channel = channel;
        this.sameHostTimeout = sameHostTimeout;
        this.allocator = allocator;
        this.devices = devices;
        this.options = options;
        this.schemaTimeout = schemaTimeout;
    }

    /**
     * {@return a builder}
     * @param location  the server, {@code grpc+tcp://host:port} or {@code grpc+tls://host:port}
     * @param allocator charged for received buffers; must outlive the client and every batch landed on the CPU
     */
    public static Builder builder(Location location, BufferAllocator allocator) {
        return new Builder(location, allocator);
    }

    /**
     * Connects, fetches one stream onto {@code target} and disconnects when the stream is closed: the one-call
     * form of {@link #get(Ticket, Device)} for a server without authentication (a {@code grpc+tls} location
     * trusts the JVM's certificates).
     *
     * @param location  the server
     * @param ticket    a ticket the server issued
     * @param target    where the batches land
     * @param allocator charged for received buffers; must outlive the stream and every batch landed on the CPU
     * @return the stream, owned by the caller; closing it closes the connection
     * @throws org.apache.arrow.flight.FlightRuntimeException if the server refuses the call
     */
    public static DeviceArrayStream get(Location location, Ticket ticket, Device target, BufferAllocator allocator) {
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(target, "target");
        DeviceFlightClient client = builder(location, allocator).build();
        return client.fetchBytes(ticket, target, new CallOption[0], client);
    }

    /**
     * Connects, sends a stream and disconnects: the one-call form of {@link #put(String, DeviceArrayStream)}.
     *
     * @param location  the server
     * @param name      the name the stream is sent under
     * @param stream    the stream; consumed
     * @param allocator charged while the batches are sent
     * @return the ticket the server issued for the stream it received
     * @throws FlightTransferException if the stream or the server failed before the end
     * @throws InterruptedException    if the calling thread is interrupted while the stream is sent
     */
    public static Ticket put(Location location, String name, DeviceArrayStream stream, BufferAllocator allocator) throws InterruptedException {
        DeviceFlightClient client;
        try {
            client = builder(location, allocator).build();
        } catch (RuntimeException e) {
            stream.close();
            throw e;
        }
        try (client) {
            return client.put(name, stream);
        }
    }

    /**
     * Fetches a stream, landing each batch on {@code target}.
     *
     * @param ticket a ticket the server issued
     * @param target where the batches land (any device of the client's registry, the CPU included)
     * @return the stream, owned by the caller; its device type is the target's. When the transfer breaks off
     *         (server gone, call cancelled), the stream's {@code hasNext()} throws a
     *         {@link dev.quiver.stream.StreamException} whose message names the stream and the batches received
     *         and whose cause is a {@link FlightTransferException} carrying the Flight status; every batch already
     *         handed out stays valid. What the server sends is untrusted: a batch that breaks the format (offsets
     *         past the buffers that arrived, out-of-range dictionary indexes or views, invalid UTF-8, ...) is never
     *         handed out or moved to {@code target}, and {@code hasNext()} then throws with an
     *         {@link InvalidFlightDataException} naming the batch and field path as the cause
     * @throws org.apache.arrow.flight.FlightRuntimeException if the server refuses the call (an unknown
     *                                                        ticket, missing or wrong credentials)
     * @throws InvalidFlightDataException if the server's schema cannot be taken or does not come within the
     *                                    schema timeout ({@link Builder#schemaTimeout})
     */
    public DeviceArrayStream get(Ticket ticket, Device target) {
        return get(ticket, target, new CallOption[0]);
    }

    /**
     * Fetches a stream as {@link #get(Ticket, Device)} does, with options for this call besides the client's
     * credentials: a deadline ({@code CallOptions.timeout(30, TimeUnit.SECONDS)}), headers, and so on. With
     * {@link Builder#preferSameHost} on, the same-host path is tried first, as {@link #fetch} does.
     *
     * @param ticket      a ticket the server issued
     * @param target      where the batches land
     * @param callOptions options of this call, added to the client's
     * @return the stream, owned by the caller, as {@link #get(Ticket, Device)} returns it; when the deadline
     *         passes, {@code hasNext()} throws a {@link dev.quiver.stream.StreamException} whose cause is a
     *         {@link FlightTransferException} with status {@code TIMED_OUT}
     * @throws org.apache.arrow.flight.FlightRuntimeException if the server refuses the call
     * @throws InvalidFlightDataException if the server's schema cannot be taken or does not come within the
     *                                    schema timeout ({@link Builder#schemaTimeout})
     */
    public DeviceArrayStream get(Ticket ticket, Device target, CallOption... callOptions) {
        return sameHostTimeout != null ? fetch(ticket, target, callOptions).stream() : fetchBytes(ticket, target, callOptions, null);
    }

    /**
     * Fetches every endpoint of a stream at once, as one stream: one {@code DoGet} per endpoint, on this client's
     * connection for the endpoints of its server ({@link DeviceFlightProducer#serve(String, Field, long, List)
     * parts}) and on a connection of its own, with this client's settings (trust, login, timeouts), for an
     * endpoint of another server; each started and its schema awaited on the calling thread, then pulled by a
     * thread of its own that lands its batches on {@code target}, at most 4 per endpoint landed and not yet handed
     * out. When an endpoint fails, the other calls are cancelled, every batch not handed out is released, and
     * {@code hasNext()} throws a {@link dev.quiver.stream.StreamException} whose cause is a
     * {@link FlightTransferException} naming the endpoint; closing the stream early does the same without an
     * error, and closes the other servers' connections. {@link #bytesReceived()} counts every endpoint.
     *
     * @param info        the stream's description ({@link #info(String)}); an endpoint naming no location, this
     *                    client's or {@code arrow-flight-reuse-connection://?} is fetched from this server, one
     *                    naming {@code grpc}, {@code grpc+tcp} or {@code grpc+tls} locations from the first of them
     * @param target      where the batches land
     * @param delivery    in order (endpoint 0's batches, then endpoint 1's, ...) or as they come
     * @param callOptions options of every call, added to the client's
     * @return the stream, owned by the caller (read by one thread at a time); closing it cancels the calls still running
     * @throws IllegalArgumentException if {@code info} lists no endpoint, one at no location a client can reach, or
     *                                  endpoints whose schemas differ
     * @throws org.apache.arrow.flight.FlightRuntimeException if a server refuses a call or the login
     */
    public DeviceArrayStream get(FlightInfo info, Device target, Delivery delivery, CallOption... callOptions) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(delivery, "delivery");
        return EndpointBatches.open(info, endpoint -> {
            Location elsewhere = EndpointBatches.elsewhere(endpoint, location);
            if (elsewhere == null) {
                return fetchBytes(endpoint.getTicket(), target, callOptions, null);
            }
            DeviceFlightClient peer = peers.apply(elsewhere);
            return CodecBatches.open(CallStubs.of(peer.channel, CallStubs.concat(peer.options, callOptions)), endpoint.getTicket(), target, devices.cpu(),
                    schemaTimeout, bytesReceived, peer);
        }, target.type(), delivery);
    }

    /**
     * Fetches a stream as {@link #get(Ticket, Device, CallOption...)} does, and tells the route it took. With
     * {@link Builder#preferSameHost} on, the client first asks the server for the stream through a Unix socket on
     * this host ({@value DeviceFlightProducer#SHARE_ACTION}, answered by a {@link DeviceFlightProducer} that
     * {@linkplain DeviceFlightProducer#shareLocally shares locally}); when the server answers with this host's
     * identity (machine id, boot id, user id) and the socket completes its handshake, each within the same-host
     * timeout, the batches arrive as memory-file handles, mapped read-only into this process with no copy over
     * the network, and are copied to {@code target} unless it is the CPU. Otherwise (a server elsewhere, one
     * that does not share, a refused, wrong or slow answer) the stream is fetched as bytes with {@code DoGet},
     * and {@link FetchedStream#fallbackReason()} says why. Batches that arrive through the socket are checked
     * as untrusted input before they are handed out, and are not counted in {@link #bytesReceived()}; a
     * transfer that breaks off there makes {@code hasNext()} throw a {@link dev.quiver.stream.StreamException}
     * whose cause is a {@link FlightTransferException}. A deadline among {@code callOptions} bounds the
     * {@value DeviceFlightProducer#SHARE_ACTION} call and a {@code DoGet}, not the batches received through the
     * socket: a server that dies mid-stream ends the shared stream with an error, and one that stalls stalls it.
     *
     * @param ticket      a ticket the server issued
     * @param target      where the batches land
     * @param callOptions options of the Flight calls, added to the client's
     * @return the stream and its route, owned by the caller
     * @throws org.apache.arrow.flight.FlightRuntimeException if the server refuses the {@code DoGet} call
     * @throws InvalidFlightDataException if the server's schema cannot be taken or does not come within the
     *                                    schema timeout ({@link Builder#schemaTimeout})
     */
    public FetchedStream fetch(Ticket ticket, Device target, CallOption... callOptions) {
        Objects.requireNonNull(ticket, "ticket");
        Objects.requireNonNull(target, "target");
        if (sameHostTimeout == null) {
            return FetchedStream.fetched(fetchBytes(ticket, target, callOptions, null), "the client does not prefer the same host (Builder.preferSameHost)");
        }
        SameHostPath.Outcome outcome = SameHostPath.attempt(client, ticket, CallStubs.concat(options, callOptions), sameHostTimeout, devices);
        if (outcome.client() == null) {
            System.getLogger(DeviceFlightClient.class.getName()).log(System.Logger.Level.DEBUG,
                    () -> "fetching " + Tickets.describe(ticket) + " as bytes: " + outcome.fallbackReason());
            return FetchedStream.fetched(fetchBytes(ticket, target, callOptions, null), outcome.fallbackReason());
        }
        SharedBatches batches = new SharedBatches(outcome.client(), target, "shared stream " + Tickets.describe(ticket));
        try {
            return FetchedStream.shared(DeviceArrayStream.of(outcome.client().schema(), target.type(), batches), batches);
        } catch (RuntimeException | Error e) {
            batches.close();
            throw e;
        }
    }


    /** {@code DoGet} on Quiver's data path ({@link CodecBatches#open}) with the client's credentials and the call's options. */
    private DeviceArrayStream fetchBytes(Ticket ticket, Device target, CallOption[] callOptions, AutoCloseable connection) {
        return CodecBatches.open(CallStubs.of(channel, CallStubs.concat(options, callOptions)), ticket, target, devices.cpu(), schemaTimeout, bytesReceived, connection);
    }

    /**
     * Sends a stream to the server, which lands it on a device of its choice and issues a ticket for it.
     *
     * @param name   the name the stream is sent under (its descriptor's path)
     * @param stream the stream; consumed (closed) by this call
     * @return the ticket the server issued for the stream it received
     * @throws FlightTransferException if the stream or the server failed before the end; the stream is closed
     */
    public Ticket put(String name, DeviceArrayStream stream) {
        return Puts.put(CallStubs.of(channel, options), name, stream, compression);
    }

    /**
     * {@return what the server lists, in its order}
     * @throws FlightRuntimeException if the call fails; the description names the reason (a refused
     *                                connection, a certificate that could not be validated)
     */
    public List<FlightInfo> listFlights() {
        try {
            List<FlightInfo> out = new ArrayList<>();
            client.listFlights(Criteria.ALL, options).forEach(out::add);
            return out;
        } catch (FlightRuntimeException e) {
            throw FlightErrors.withReason(e);
        }
    }

    /**
     * {@return the server's description of it: schema, row count, ticket}
     * @param name a stream's name
     * @throws FlightRuntimeException if the call fails ({@code NOT_FOUND} for a name the server does not
     *                                serve); the description names the reason
     */
    public FlightInfo info(String name) {
        try {
            return client.getInfo(FlightDescriptor.path(name), options);
        } catch (FlightRuntimeException e) {
            throw FlightErrors.withReason(e);
        }
    }

    /**
     * {@return bytes of Arrow data (the bodies of the IPC messages, padding included) this client has received
     * since it was built, over all its streams; read at any time from any thread, for progress}
     */
    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** {@return the Arrow Flight client underneath, for calls this class does not wrap; owned by this client} */
    public FlightClient flightClient() {
        return client;
    }

    /** {@return the call options (credentials) sent with every call} */
    public CallOption[] callOptions() {
        return options.clone();
    }

    /**
     * Closes the connection; streams from {@link #get} must be closed first. Where Arrow Java's reader left
     * bytes charged to the client's allocator after refusing a malformed message from the server (a defect of
     * Arrow Java 19 when it fails growing a vector to a row count its buffers do not hold), the connection is
     * still closed and the leak is logged as a warning, not thrown.
     */
    @Override
    public void close() throws InterruptedException {
        try {
            client.close();
        } catch (IllegalStateException leaked) {
            System.getLogger(DeviceFlightClient.class.getName()).log(System.Logger.Level.WARNING,
                    "memory charged to the Flight client's allocator was still allocated when it closed (arrays landed on the CPU"
                            + " and not closed yet, or buffers Arrow Java's reader left after refusing a malformed message): " + leaked.getMessage());
        }
    }

    /** Connection settings. One thread at a time. */
    public static final class Builder {
        private final NettyClientBuilder flight;
        private final BufferAllocator allocator;
        private Devices devices = Devices.system();
        private String user;
        private String password;
        private String token;
        private Duration schemaTimeout = SchemaWait.DEFAULT;
        private Duration sameHostTimeout;
        private FlightCompression compression = FlightCompression.NONE;
        private byte[] trusted;
        private final Location location;

        private Builder(Location location, BufferAllocator allocator) {
            this.location = location;
            this.allocator = Objects.requireNonNull(allocator, "allocator");
            this.flight = new NettyClientBuilder(allocator, Objects.requireNonNull(location, "location"));
        }

        /**
         * {@return this builder}
         * @param certificates PEM certificates to trust for a TLS location; read at once, closed by the caller
         */
        public Builder trustedCertificates(InputStream certificates) {
            try {
                this.trusted = certificates.readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("the certificates to trust could not be read", e);
            }
            flight.trustedCertificates(new java.io.ByteArrayInputStream(trusted));
            return this;
        }

        /** {@return a builder of the same settings for another server, for the endpoints a stream lists there} */
        private Builder at(Location other) {
            Builder peer = new Builder(other, allocator).devices(devices).schemaTimeout(schemaTimeout).compression(compression);
            if (trusted != null) {
                peer.trustedCertificates(new java.io.ByteArrayInputStream(trusted));
            }
            peer.user = user;
            peer.password = password;
            peer.token = token;
            return peer;
        }

        /**
         * Logs in with a user and password when built, then sends the bearer token the server returns.
         *
         * @param user     the user
         * @param password the password
         * @return this builder
         */
        public Builder basicAuth(String user, String password) {
            this.user = Objects.requireNonNull(user, "user");
            this.password = Objects.requireNonNull(password, "password");
            return this;
        }

        /**
         * {@return this builder}
         * @param bearerToken a token the server issued, sent on every call
         */
        public Builder bearerToken(String bearerToken) {
            this.token = Objects.requireNonNull(bearerToken, "bearerToken");
            return this;
        }

        /**
         * {@return this builder}
         * @param timeout how long a server may take to send a stream's schema, its first message (default 60 s):
         *                a server that sends a batch first, or nothing, fails the fetch with an
         *                {@link InvalidFlightDataException} when the time is up
         */
        public Builder schemaTimeout(Duration timeout) {
            this.schemaTimeout = SchemaWait.requirePositive(timeout);
            return this;
        }

        /**
         * Makes {@link DeviceFlightClient#get} and {@link DeviceFlightClient#fetch} try the same-host path first
         * (off by default), each step bounded by 10 seconds.
         *
         * @param prefer whether to ask the server for streams through a socket on this host before fetching bytes
         * @return this builder
         */
        public Builder preferSameHost(boolean prefer) {
            this.sameHostTimeout = prefer ? Duration.ofSeconds(10) : null;
            return this;
        }

        /**
         * Makes the client try the same-host path first, as {@link #preferSameHost(boolean)}, with another bound on
         * each of its steps (the server's answer, the socket's handshake).
         *
         * @param timeout the longest wait for each step, positive; when it passes the stream is fetched as bytes
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is not positive
         */
        public Builder preferSameHost(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the same-host timeout must be positive, not " + timeout);
            }
            this.sameHostTimeout = timeout;
            return this;
        }

        /**
         * {@return this builder}
         * @param registry where the client finds devices for copies (default {@link Devices#system()})
         */
        public Builder devices(Devices registry) {
            this.devices = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * {@return this builder}
         * @param compression how the bodies of the batches {@link #put} sends are compressed (default
         *                    {@link FlightCompression#NONE}); what arrives is read in either codec without an option
         */
        public Builder compression(FlightCompression compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
            return this;
        }

        /**
         * Connects, and logs in if {@link #basicAuth} was given.
         *
         * @return the client, owned by the caller
         * @throws org.apache.arrow.flight.FlightRuntimeException if the login is refused
         */
        public DeviceFlightClient build() {
            ManagedChannel channel = ClientTransport.apply(flight.build(), location).build();
            FlightClient client = FlightGrpcUtils.createFlightClient(allocator, channel, new ArrayList<>());
            try {
                return new DeviceFlightClient(client, channel, location, allocator, devices, FlightAuth.clientCredentials(client, user, password, token),
                        schemaTimeout, sameHostTimeout, compression, other -> at(other).build());
            } catch (RuntimeException e) {
                try {
                    client.close();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                throw e instanceof FlightRuntimeException flight ? FlightErrors.withReason(flight) : e;
            }
        }
    }
}
