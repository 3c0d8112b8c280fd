package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An Arrow Flight producer that serves {@link DeviceArrayStream}s from any device, and lands what clients
 * put on a device it chooses. Each stream is offered under a ticket it issues ({@link #serve}); clients find
 * streams with {@code ListFlights} and {@code GetFlightInfo} (schema, row count where known, ticket) and fetch
 * them with {@code DoGet}, where a ticket the producer did not issue is refused with {@code NOT_FOUND}. A stream
 * may be split over several endpoints, each part under a ticket of its own ({@link #serve(String, Field, long, List)}).
 *
 * <p><b>DoGet.</b> A thread of the call's own copies batch n+1 to the host while batch n is written to the
 * network; the writer waits for gRPC to be ready before each batch, so a slow reader keeps the server to a few
 * batches in memory. When the client cancels, fetching stops and every array fetched is released. Behind a
 * {@link DeviceFlightServer}, {@code DoGet} runs on Quiver's own data path: each batch's buffers go to gRPC from
 * host memory without a copy, and the dictionaries of each batch go with it (replacing those sent before), so
 * batches may change their dictionaries. Served by Arrow Java's {@code FlightServer} alone, {@link #getStream}
 * goes through Arrow Java's writer, which sends dictionaries once per stream: every batch must then share its
 * first batch's dictionaries, and a batch that does not fails the call with a message saying so.
 *
 * <p><b>DoPut.</b> The batches land on the put device given at construction (receiving batch n+1 while batch
 * n is copied there), are kept, and are served under a new ticket, returned to the client as the put's
 * application metadata. A put under the name of a stream already served replaces it. What a client puts is
 * untrusted: each batch is checked against the buffers that arrived before it is moved to the put device
 * (see {@link InvalidFlightDataException}); a put with a batch that breaks the format fails with
 * {@code INVALID_ARGUMENT} naming the batch and field path, and nothing of it is kept or served.
 *
 * <p><b>Same host.</b> With {@link #shareLocally(boolean)} on, the producer answers the action
 * {@value #SHARE_ACTION}, whose body is a ticket, with a private Unix socket ({@code dev.quiver.share}) where
 * the one receiver that connects first, as this process's user, gets that ticket's stream as memory-file
 * handles instead of bytes, and with this host's identity (machine id, boot id, user id), which a
 * {@link DeviceFlightClient} compares with its own before it connects. The socket goes away once a receiver
 * connected or after {@link #shareTimeouts accept timeout}; the stream is sent, then the server waits (at most
 * the release timeout) until the receiver released every batch or left, and lets go of the rest. A producer
 * wrapped in another {@code FlightProducer} must pass that action on to {@link #doAction}.
 *
 * <p><b>Ownership.</b> The producer owns the batches clients put and closes them in {@link #close()}; a
 * stream served with {@link #serve} is opened by each fetch and closed when that fetch ends. The allocator
 * is charged for the host batches in flight and the batches landed on the CPU; it must outlive the producer.
 *
 * <p><b>Threading.</b> Thread-safe: Flight calls it from its call threads, and {@code serve} may be called at
 * any time.
 */
public final class DeviceFlightProducer extends NoOpFlightProducer implements AutoCloseable {
    private final BufferAllocator allocator;
    private final Device putTarget;
    private final Devices devices;
    private final Map<String, List<ServedStream>> byName = new LinkedHashMap<>();
    private final Map<Ticket, ServedStream> byTicket = new LinkedHashMap<>();
    private final Map<String, StoredBatches> stored = new LinkedHashMap<>();
    private final AtomicLong bytesReceived = new AtomicLong();
    private volatile Duration schemaTimeout = SchemaWait.DEFAULT;
    private LocalShares shares;
    private Duration shareAcceptTimeout = Duration.ofSeconds(30);
    private Duration shareReleaseTimeout = Duration.ofMinutes(10);

    /** The action that asks for a stream through a socket on the same host: its body is the stream's ticket. */
    public static final String SHARE_ACTION = "quiver.share";

    /**
     * Makes a producer that serves nothing yet, with the system's devices.
     *
     * @param allocator charged for host batches in flight and for batches put onto the CPU
     * @param putTarget where batches that clients put land
     */
    public DeviceFlightProducer(BufferAllocator allocator, Device putTarget) {
        this(allocator, putTarget, Devices.system());
    }

    /**
     * Makes a producer that serves nothing yet.
     *
     * @param allocator charged for host batches in flight and for batches put onto the CPU
     * @param putTarget where batches that clients put land
     * @param devices   the registry of the arrays it makes
     */
    public DeviceFlightProducer(BufferAllocator allocator, Device putTarget, Devices devices) {
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.putTarget = Objects.requireNonNull(putTarget, "putTarget");
        this.devices = Objects.requireNonNull(devices, "devices");
    }

    /**
     * Offers a stream under a new ticket, replacing any stream served under the same name.
     *
     * @param name   the name clients ask about ({@code FlightDescriptor.path(name)})
     * @param schema the struct field of every batch
     * @param rows   the total row count, or -1 if unknown
     * @param opener opens the stream for one fetch; called on each fetch's thread, possibly concurrently
     * @return the ticket, which clients give to {@code DoGet}
     * @throws IllegalArgumentException if Arrow Java cannot carry the schema
     */
    public Ticket serve(String name, Field schema, long rows, Supplier<DeviceArrayStream> opener) {
        Objects.requireNonNull(opener, "opener");
        return serve(name, schema, rows, List.of(opener)).getFirst();
    }

    /**
     * Offers one stream split over several endpoints, each part under a ticket of its own, replacing any stream
     * served under the same name. {@code GetFlightInfo} and {@code ListFlights} list the parts' endpoints in
     * order; a client fetches them concurrently with
     * {@link DeviceFlightClient#get(FlightInfo, Device, Delivery, org.apache.arrow.flight.CallOption...)}, and the
     * stream is all of part 0's batches, then part 1's, and so on.
     *
     * @param name   the name clients ask about ({@code FlightDescriptor.path(name)})
     * @param schema the struct field of every batch of every part
     * @param rows   the total row count of all parts, or -1 if unknown
     * @param parts  opens each part for one fetch, at least one; called on each fetch's thread, possibly concurrently
     * @return the parts' tickets, in order
     * @throws IllegalArgumentException if {@code parts} is empty or Arrow Java cannot carry the schema
     */
    public List<Ticket> serve(String name, Field schema, long rows, List<Supplier<DeviceArrayStream>> parts) {
        Objects.requireNonNull(name, "name");
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a stream needs at least one part, " + name + " has none");
        }
        var arrowSchema = ArrowSchemas.of(schema, allocator);
        List<ServedStream> served = new ArrayList<>();
        for (Supplier<DeviceArrayStream> part : parts) {
            served.add(new ServedStream(name, Tickets.issue(), schema, arrowSchema, rows, Objects.requireNonNull(part, "part")));
        }
        synchronized (this) {
            List<ServedStream> replaced = byName.put(name, List.copyOf(served));
            if (replaced != null) {
                replaced.forEach(r -> byTicket.remove(r.ticket()));
            }
            served.forEach(s -> byTicket.put(s.ticket(), s));
        }
        return served.stream().map(ServedStream::ticket).toList();
    }

    /**
     * Keeps batches and offers them under a new ticket; each fetch streams slices of them.
     *
     * @param name    the name clients ask about
     * @param schema  the struct field of every batch
     * @param batches the batches, all on one device; owned by the producer from now on
     * @return the ticket
     */
    public Ticket serve(String name, Field schema, List<DeviceArray> batches) {
        StoredBatches kept = new StoredBatches(schema, batches.isEmpty() ? putTarget.type() : batches.getFirst().deviceType(), batches, devices);
        Ticket ticket;
        try {
            ticket = serve(name, schema, kept.rows(), kept::open);
        } catch (RuntimeException e) {
            kept.close();
            throw e;
        }
        StoredBatches replaced;
        synchronized (this) {
            replaced = stored.put(name, kept);
        }
        if (replaced != null) {
            replaced.close();
        }
        return ticket;
    }

    /**
     * Sets how long a client's put may take to send its schema, the first message of every Flight stream
     * (default 60 s): a put that sends a batch first, or nothing, is refused with {@code INVALID_ARGUMENT} when
     * the time is up, so that it holds no call thread longer (behind a {@link DeviceFlightServer}, a put whose first
     * message is a batch is refused at once, before this wait). Applies to puts that start afterwards; any thread.
     *
     * @param timeout the longest wait, positive
     * @return this producer
     */
    public DeviceFlightProducer schemaTimeout(Duration timeout) {
        this.schemaTimeout = SchemaWait.requirePositive(timeout);
        return this;
    }

    /**
     * Turns the same-host path on or off: on, the {@value #SHARE_ACTION} action offers a stream through a
     * private Unix socket; off (the default), that action is refused with {@code UNIMPLEMENTED} and clients
     * fetch bytes. Turning it off closes the sockets still waiting and the sessions still open (batches
     * already received stay readable). Any thread.
     *
     * @param share whether to offer streams to receivers on this host
     * @return this producer
     * @throws IllegalStateException if {@code share} is true where the kernel does not tell this host's
     *                               identity (not Linux)
     */
    public DeviceFlightProducer shareLocally(boolean share) {
        LocalShares replaced;
        synchronized (this) {
            replaced = shares;
            shares = null;
            if (share) {
                String host = HostIdentity.current().orElseThrow(() -> new IllegalStateException(
                        "sharing locally needs the host's identity (/proc/sys/kernel/random/boot_id), which this system does not give"));
                shares = new LocalShares(host, shareAcceptTimeout, shareReleaseTimeout);
            }
        }
        if (replaced != null) {
            replaced.close();
        }
        return this;
    }

    /**
     * Sets the same-host path's timeouts, for offers made afterwards (call before {@link #shareLocally}).
     *
     * @param accept  how long an offer's socket waits for its receiver and its handshake (default 30 s)
     * @param release how long, after the end of the stream, the server keeps batches the receiver has not
     *                released (default 10 min); the receiver's arrays stay readable after that
     * @return this producer
     * @throws IllegalArgumentException if either is not positive
     */
    public synchronized DeviceFlightProducer shareTimeouts(Duration accept, Duration release) {
        if (accept.isNegative() || accept.isZero() || release.isNegative() || release.isZero()) {
            throw new IllegalArgumentException("share timeouts must be positive, not accept " + accept + " and release " + release);
        }
        this.shareAcceptTimeout = accept;
        this.shareReleaseTimeout = release;
        return this;
    }

    /** {@return bytes of Arrow data received from clients' puts since construction; any thread} */
    public long bytesReceived() {
        return bytesReceived.get();
    }

    /**
     * {@return the stream a ticket names, as the codec's {@code DoGet} serves it (see {@link DeviceFlightServer}),
     * or null if this producer did not issue the ticket}
     * @param ticket a ticket's bytes, as a client sent them
     */
    dev.quiver.flight.wire.CodecDoGet.Served codecStream(byte[] ticket) {
        ServedStream served;
        synchronized (this) {
            served = byTicket.get(new Ticket(ticket));
        }
        return served == null ? null
                : new dev.quiver.flight.wire.CodecDoGet.Served(served.name(), served.schema(), () -> new HostArrays(served.opener().get(), served.name()));
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        ServedStream served;
        synchronized (this) {
            served = byTicket.get(ticket);
        }
        if (served == null) {
            listener.error(CallStatus.NOT_FOUND.withDescription("ticket " + Tickets.describe(ticket) + " was not issued by this server").toRuntimeException());
            return;
        }
        try (HostBatches batches = new HostBatches(served.opener().get(), allocator, served.name())) {
            BatchSender.send(batches, served.schema(), listener, new ServingGate(batches, listener), allocator);
        } catch (RuntimeException | Error e) {
            listener.error(CallStatus.INTERNAL.withDescription("serving " + served.name() + " failed: " + e.getMessage()).withCause(e).toRuntimeException());
        }
    }

    /**
     * Answers {@value #SHARE_ACTION} (see {@link #shareLocally}); any other action is refused with
     * {@code UNIMPLEMENTED}.
     */
    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        if (!SHARE_ACTION.equals(action.getType())) {
            listener.onError(CallStatus.UNIMPLEMENTED.withDescription("no action " + action.getType()).toRuntimeException());
            return;
        }
        LocalShares offering;
        ServedStream served;
        Ticket ticket = new Ticket(action.getBody());
        synchronized (this) {
            offering = shares;
            served = byTicket.get(ticket);
        }
        if (offering == null) {
            listener.onError(CallStatus.UNIMPLEMENTED.withDescription("this server does not share streams locally").toRuntimeException());
        } else if (served == null) {
            listener.onError(CallStatus.NOT_FOUND.withDescription("ticket " + Tickets.describe(ticket) + " was not issued by this server").toRuntimeException());
        } else {
            try {
                listener.onNext(new Result(offering.offer(served).encode()));
                listener.onCompleted();
            } catch (RuntimeException e) {
                listener.onError(CallStatus.UNAVAILABLE.withDescription("cannot share " + served.name() + " locally: " + e.getMessage())
                        .withCause(e).toRuntimeException());
            }
        }
    }

    /** Lists {@value #SHARE_ACTION} while {@link #shareLocally} is on. */
    @Override
    public void listActions(CallContext context, StreamListener<ActionType> listener) {
        boolean sharing;
        synchronized (this) {
            sharing = shares != null;
        }
        if (sharing) {
            listener.onNext(new ActionType(SHARE_ACTION, "a socket on this host where a ticket's stream is received as memory-file handles"));
        }
        listener.onCompleted();
    }

    @Override
    public void listFlights(CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
        List<List<ServedStream>> all;
        synchronized (this) {
            all = new ArrayList<>(byName.values());
        }
        all.forEach(served -> listener.onNext(info(served)));
        listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
        String name = nameOf(descriptor);
        List<ServedStream> served;
        synchronized (this) {
            served = byName.get(name);
        }
        if (served == null) {
            throw CallStatus.NOT_FOUND.withDescription("no stream named " + name).toRuntimeException();
        }
        return info(served);
    }

    private static FlightInfo info(List<ServedStream> parts) {
        ServedStream first = parts.getFirst();
        return new FlightInfo(first.arrowSchema(), FlightDescriptor.path(first.name()),
                parts.stream().map(part -> new FlightEndpoint(part.ticket())).toList(), -1, first.rows());
    }

    static String nameOf(FlightDescriptor descriptor) {
        if (!descriptor.isCommand() && descriptor.getPath().size() == 1) {
            return descriptor.getPath().getFirst();
        }
        String given = descriptor.isCommand() ? "a command (" + descriptor.getCommand().length + " bytes)"
                : "a path of " + descriptor.getPath().size() + " elements " + descriptor.getPath();
        throw CallStatus.INVALID_ARGUMENT.withDescription("streams are named by a path of one element; the descriptor is " + given).toRuntimeException();
    }

    /** {@return where put batches land} */
    Device putTarget() {
        return putTarget;
    }

    /** {@return how long a put or a fetch may take to send its schema} */
    Duration schemaTimeout() {
        return schemaTimeout;
    }

    /** Counts body bytes a put on Quiver's path received (see {@link #bytesReceived()}). */
    void countReceived(long bytes) {
        bytesReceived.addAndGet(bytes);
    }

    @Override
    public Runnable acceptPut(CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
        return () -> {
            String name = putName(flightStream);
            List<DeviceArray> landed = new ArrayList<>();
            Field schema;
            try (DeviceArrayStream received = ReceivedStreams.open(flightStream, putTarget, allocator, devices, "put " + name, bytesReceived, null, schemaTimeout)) {
                schema = received.schema();
                while (received.hasNext()) {
                    landed.add(received.next());
                }
            } catch (RuntimeException | Error e) {
                landed.forEach(DeviceArray::close);
                InvalidFlightDataException invalid = InvalidFlightDataException.in(e);
                if (invalid != null) {
                    throw CallStatus.INVALID_ARGUMENT.withDescription(invalid.getMessage()).withCause(invalid).toRuntimeException();
                }
                throw CallStatus.INTERNAL.withDescription("landing " + name + " on " + putTarget + " failed: " + e.getMessage()).withCause(e).toRuntimeException();
            }
            Ticket ticket = serve(name, schema, landed);
            byte[] bytes = ticket.getBytes();
            ArrowBuf metadata = allocator.buffer(bytes.length);
            metadata.writeBytes(bytes);
            try (PutResult result = PutResult.metadata(metadata)) {
                ackStream.onNext(result);
            }
            ackStream.onCompleted();
        };
    }

    /**
     * Waits (up to the schema timeout) for the put's schema, which carries its descriptor, then reads the name
     * from it. Arrow Java's descriptor and root wait without limit for a schema that a hostile client may never
     * send; a put without one, or with a descriptor that names no stream, is refused and its stream closed.
     */
    private String putName(FlightStream flightStream) {
        try {
            SchemaWait.await(flightStream, schemaTimeout, "put");
        } catch (InvalidFlightDataException e) {
            StreamClosing.closeWithoutSchema(flightStream, e);
            throw CallStatus.INVALID_ARGUMENT.withDescription(e.getMessage()).withCause(e).toRuntimeException();
        }
        try {
            return nameOf(flightStream.getDescriptor());
        } catch (RuntimeException e) {
            try {
                flightStream.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Forgets every stream and closes the batches clients put; fetches still running keep their slices. Closes the
     * same-host sockets still waiting and the sessions still open.
     */
    @Override
    public void close() {
        List<StoredBatches> kept;
        LocalShares sharing;
        synchronized (this) {
            sharing = shares;
            shares = null;
            kept = new ArrayList<>(stored.values());
            stored.clear();
            byName.clear();
            byTicket.clear();
        }
        if (sharing != null) {
            sharing.close();
        }
        kept.forEach(StoredBatches::close);
    }
}
