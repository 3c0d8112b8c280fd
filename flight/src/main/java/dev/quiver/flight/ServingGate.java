package dev.quiver.flight;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;

import java.util.concurrent.locks.LockSupport;

/**
 * Backpressure and cancellation for one {@code DoGet}: before each batch the sending thread waits until
 * gRPC can take more without queueing beyond its threshold (Flight's {@code isReady}), so a slow reader holds
 * the server to a few batches in memory; when the client cancels, the prefetch stops and writing ends.
 *
 * <p>It polls rather than waiting for Flight's ready and cancel handlers: gRPC runs those on the call's
 * serializing executor, the very thread a blocking {@code getStream} occupies, so they would only run after
 * the stream ended. The pause between polls grows from 20 µs to 1 ms, so a writer that is rarely held up
 * spends almost nothing and one held up by a slow reader wakes a thousand times a second at most.
 *
 * <p><b>Threading.</b> {@link #awaitReady()} on the sending thread only.
 */
final class ServingGate implements ReadyGate {
    private static final long FIRST_PAUSE_NANOS = 20_000;
    private static final long LONGEST_PAUSE_NANOS = 1_000_000;

    private final HostBatches batches;
    private final ServerStreamListener listener;

    /**
     * @param batches  stopped when the call is cancelled
     * @param listener the call
     */
    ServingGate(HostBatches batches, ServerStreamListener listener) {
        this.batches = batches;
        this.listener = listener;
    }

    @Override
    public boolean awaitReady() {
        long pause = FIRST_PAUSE_NANOS;
        while (true) {
            if (listener.isCancelled() || Thread.currentThread().isInterrupted()) {
                batches.stop();
                return false;
            }
            if (listener.isReady()) {
                return true;
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(2 * pause, LONGEST_PAUSE_NANOS);
        }
    }
}
