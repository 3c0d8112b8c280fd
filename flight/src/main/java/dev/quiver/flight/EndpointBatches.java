package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Location;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * The batches of every endpoint of a {@link FlightInfo}, fetched concurrently and handed out as one stream: each
 * endpoint's {@code DoGet} is pulled by a thread of its own ({@code quiver-flight-endpoint-N}), which lands its
 * batches on the target and queues them, at most {@link #BUFFERED} batches per endpoint landed and not yet handed
 * out; the consumer takes them {@linkplain Delivery in order or as they come}.
 *
 * <p><b>Errors.</b> When an endpoint fails, every other call is cancelled, every batch not handed out is released,
 * and {@link #hasNext()} throws a {@link FlightTransferException} naming the endpoint (its index and ticket) and
 * the stream, with the endpoint's failure as its cause (and its Flight status as {@code status()}).
 *
 * <p><b>Ownership.</b> Owns the endpoints' streams: {@link #close()} (also early) cancels the calls still running,
 * waits for their threads to end, and releases every batch landed and not handed out. Arrays {@link #next()}
 * returns are the caller's.
 *
 * <p><b>Threading.</b> {@link #hasNext()}, {@link #next()} and {@link #close()} from one thread at a time.
 */
final class EndpointBatches implements Iterator<DeviceArray>, AutoCloseable {
    /** Batches per endpoint landed and not yet handed out, at most. */
    static final int BUFFERED = 4;

    /** A batch of an endpoint, the end of an endpoint (no batch, no failure) or its failure. */
    private record Arrival(int endpoint, DeviceArray batch, RuntimeException failure) {
    }

    private final String what;
    private final List<String> names;
    private final Delivery delivery;
    private final LinkedBlockingQueue<Arrival> arrived = new LinkedBlockingQueue<>();
    private final List<ArrayDeque<Arrival>> waiting = new ArrayList<>();
    private final Semaphore[] room;
    private final boolean[] ended;
    private final List<Thread> pullers = new ArrayList<>();
    private volatile boolean stopping;
    private int current;
    private int endedCount;
    private DeviceArray pending;
    private RuntimeException failure;

    private EndpointBatches(List<DeviceArrayStream> streams, List<String> names, String what, Delivery delivery) {
        this.what = what;
        this.names = names;
        this.delivery = delivery;
        int n = streams.size();
        this.room = new Semaphore[n];
        this.ended = new boolean[n];
        for (int i = 0; i < (delivery == Delivery.IN_ORDER ? n : 1); i++) {
            waiting.add(new ArrayDeque<>());
        }
        for (int i = 0; i < n; i++) {
            room[i] = new Semaphore(BUFFERED);
            int endpoint = i;
            pullers.add(Thread.ofPlatform().daemon().name("quiver-flight-endpoint-" + i).unstarted(() -> pull(endpoint, streams.get(endpoint))));
        }
    }

    /**
     * Starts a fetch of every endpoint of {@code info} and returns them as one stream.
     *
     * @param info       the stream's description
     * @param fetch      starts the fetch of one endpoint, its schema arrived, onto the target
     * @param deviceType the target's device type
     * @param delivery   the order of the batches
     * @return the stream, owned by the caller
     * @throws IllegalArgumentException if {@code info} lists no endpoint, or endpoints of different schemas
     */
    static DeviceArrayStream open(FlightInfo info, Function<FlightEndpoint, DeviceArrayStream> fetch, DeviceType deviceType, Delivery delivery) {
        String what = "flight stream " + info.getDescriptor();
        List<FlightEndpoint> endpoints = info.getEndpoints();
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException(what + " lists no endpoint");
        }
        List<String> names = new ArrayList<>();
        for (FlightEndpoint endpoint : endpoints) {
            names.add("endpoint " + names.size() + " of " + endpoints.size() + " (ticket " + Tickets.describe(endpoint.getTicket()) + ")");
        }
        List<DeviceArrayStream> streams = new ArrayList<>();
        try {
            for (FlightEndpoint endpoint : endpoints) {
                streams.add(fetch.apply(endpoint));
                if (!streams.getLast().schema().equals(streams.getFirst().schema())) {
                    throw new IllegalArgumentException(names.get(streams.size() - 1) + " of " + what + " has the schema "
                            + streams.getLast().schema() + ", not endpoint 0's " + streams.getFirst().schema());
                }
            }
            EndpointBatches batches = new EndpointBatches(streams, names, what, delivery);
            batches.pullers.forEach(Thread::start);
            return DeviceArrayStream.of(streams.getFirst().schema(), deviceType, batches);
        } catch (RuntimeException | Error e) {
            streams.forEach(DeviceArrayStream::close);
            throw e;
        }
    }

    /**
     * {@return where an endpoint is to be fetched: null for {@code server} itself (no location, the server's, or
     * {@code arrow-flight-reuse-connection://?}), else the first of its locations a gRPC client reaches}
     * @param endpoint an endpoint of a stream {@code server} described
     * @param server   the location of the client's connection
     * @throws IllegalArgumentException if it lists only locations of other kinds
     */
    static Location elsewhere(FlightEndpoint endpoint, Location server) {
        List<Location> locations = endpoint.getLocations();
        for (Location location : locations) {
            URI uri = location.getUri();
            if (uri.equals(server.getUri()) || "arrow-flight-reuse-connection".equals(uri.getScheme())) {
                return null;
            }
        }
        for (Location location : locations) {
            if (ClientTransport.TCP_SCHEMES.contains(location.getUri().getScheme())) {
                return location;
            }
        }
        if (locations.isEmpty()) {
            return null;
        }
        throw new IllegalArgumentException("the endpoint of ticket " + Tickets.describe(endpoint.getTicket()) + " is at " + locations
                + ", none of them a grpc, grpc+tcp or grpc+tls location");
    }

    /** The work of endpoint {@code i}'s thread: lands its batches until its end, a failure, or the consumer stops. */
    private void pull(int i, DeviceArrayStream stream) {
        try (stream) {
            while (!stopping) {
                room[i].acquire();
                if (!stream.hasNext()) {
                    arrived.add(new Arrival(i, null, null));
                    return;
                }
                arrived.add(new Arrival(i, stream.next(), null));
            }
        } catch (InterruptedException e) {
            // the consumer stopped the fetch; closing the stream cancels the call
        } catch (RuntimeException | Error e) {
            if (!stopping) {
                arrived.add(new Arrival(i, null, e instanceof RuntimeException r ? r : new IllegalStateException(e)));
            }
        }
    }

    @Override
    public boolean hasNext() {
        if (failure != null) {
            throw failure;
        }
        try {
            while (pending == null) {
                for (Arrival a; (a = arrived.poll()) != null; ) {
                    absorb(a);
                }
                if (failure != null) {
                    close();
                    throw failure;
                }
                Arrival next = choose();
                if (next != null) {
                    room[next.endpoint()].release();
                    pending = next.batch();
                } else if (finished()) {
                    return false;
                } else {
                    absorb(arrived.take());
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            failure = new FlightTransferException(what + ": interrupted while waiting for a batch", e);
            throw failure;
        }
    }

    private void absorb(Arrival a) {
        if (a.batch() != null) {
            waiting.get(delivery == Delivery.IN_ORDER ? a.endpoint() : 0).add(a);
        } else if (a.failure() != null) {
            if (failure == null) {
                failure = new FlightTransferException(names.get(a.endpoint()) + " of " + what + " failed: " + a.failure().getMessage(), a.failure());
            } else {
                failure.addSuppressed(a.failure());
            }
        } else {
            ended[a.endpoint()] = true;
            endedCount++;
        }
    }

    private Arrival choose() {
        if (delivery == Delivery.AS_THEY_COME) {
            return waiting.getFirst().poll();
        }
        while (current < ended.length && ended[current] && waiting.get(current).isEmpty()) {
            current++;
        }
        return current < ended.length ? waiting.get(current).poll() : null;
    }

    private boolean finished() {
        return delivery == Delivery.IN_ORDER ? current == ended.length : endedCount == ended.length && waiting.getFirst().isEmpty();
    }

    @Override
    public DeviceArray next() {
        if (!hasNext()) {
            throw new NoSuchElementException(what + " has no more batches");
        }
        DeviceArray out = pending;
        pending = null;
        return out;
    }

    /** Cancels the calls still running, waits for their threads, and releases every batch not handed out. */
    @Override
    public void close() {
        stopping = true;
        pullers.forEach(Thread::interrupt);
        boolean interrupted = false;
        for (Thread puller : pullers) {
            while (puller.isAlive()) {
                try {
                    puller.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        for (Arrival a; (a = arrived.poll()) != null; ) {
            if (a.batch() != null) {
                a.batch().close();
            }
        }
        waiting.forEach(queue -> queue.forEach(a -> a.batch().close()));
        waiting.forEach(ArrayDeque::clear);
        if (pending != null) {
            pending.close();
            pending = null;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
