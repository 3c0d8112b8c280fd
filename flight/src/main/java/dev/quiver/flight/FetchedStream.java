package dev.quiver.flight;

import dev.quiver.stream.DeviceArrayStream;

import java.util.Optional;

/**
 * A stream fetched by {@link DeviceFlightClient#fetch}, and the route it came by: {@link Route#SHARED} when it
 * is received from a server on the same host as memory-file handles, {@link Route#FETCHED} when its bytes come
 * over Flight's {@code DoGet}, with the reason the same-host path was not taken.
 *
 * <p><b>Ownership.</b> The {@link #stream()} belongs to the caller, as one from {@link DeviceFlightClient#get}
 * does; closing this object closes it. <b>Threading.</b> The stream's rules; the other methods from any thread.
 */
public final class FetchedStream implements AutoCloseable {
    /** How a stream's batches arrive. */
    public enum Route {
        /** As memory-file handles from a server on the same host ({@code dev.quiver.share}). */
        SHARED,
        /** As bytes over Flight's {@code DoGet}. */
        FETCHED
    }

    private final DeviceArrayStream stream;
    private final Route route;
    private final SharedBatches shared;
    private final String fallbackReason;

    private FetchedStream(DeviceArrayStream stream, Route route, SharedBatches shared, String fallbackReason) {
        this.stream = stream;
        this.route = route;
        this.shared = shared;
        this.fallbackReason = fallbackReason;
    }

    static FetchedStream shared(DeviceArrayStream stream, SharedBatches batches) {
        return new FetchedStream(stream, Route.SHARED, batches, null);
    }

    static FetchedStream fetched(DeviceArrayStream stream, String fallbackReason) {
        return new FetchedStream(stream, Route.FETCHED, null, fallbackReason);
    }

    /** {@return the stream, whose batches land on the device asked for, owned by the caller} */
    public DeviceArrayStream stream() {
        return stream;
    }

    /** {@return the route the batches come by} */
    public Route route() {
        return route;
    }

    /** {@return why the same-host path was not taken, for a stream fetched as bytes; empty for a shared one} */
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(fallbackReason);
    }

    /**
     * {@return batches received so far that read the server's own memory, with no copy made for the handoff (0 for
     * a stream fetched as bytes); a shared batch the server had to copy into shared memory does not count}
     */
    public long zeroCopyBatches() {
        return shared == null ? 0 : shared.zeroCopy();
    }

    /** {@return batches received so far through the same-host socket, zero-copy or not (0 for a stream fetched as bytes)} */
    public long sharedBatches() {
        return shared == null ? 0 : shared.received();
    }

    /** Closes the stream (see {@link DeviceArrayStream#close()}); batches handed out stay valid. */
    @Override
    public void close() {
        stream.close();
    }

    @Override
    public String toString() {
        return "fetched stream (" + route + (fallbackReason == null ? "" : ": " + fallbackReason) + ")";
    }
}
