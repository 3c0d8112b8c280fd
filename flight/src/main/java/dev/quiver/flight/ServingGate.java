package dev.quiver.flight;

import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;

/**
 * Backpressure and cancellation for one {@code DoGet}: before each batch the sending thread waits until
 * gRPC can take more without queueing beyond its threshold (Flight's {@code isReady} and
 * {@code setOnReadyHandler}), so a slow reader holds the server to a few batches in memory; when the client
 * cancels, the prefetch stops at once and the wait ends.
 *
 * <p><b>Threading.</b> {@link #awaitReady()} on the sending thread; gRPC calls the ready and cancel
 * handlers on its own threads.
 */
final class ServingGate extends BackpressureStrategy.CallbackBackpressureStrategy implements ReadyGate {
    private static final long WAIT_MILLIS = 1_000;

    private final HostBatches batches;
    private final ServerStreamListener listener;

    /**
     * @param batches  stopped when the call is cancelled
     * @param listener the call; its ready and cancel handlers are taken over
     */
    ServingGate(HostBatches batches, ServerStreamListener listener) {
        this.batches = batches;
        this.listener = listener;
        register(listener);
    }

    @Override
    public boolean awaitReady() {
        while (true) {
            WaitResult result = waitForListener(WAIT_MILLIS);
            if (result == WaitResult.READY) {
                return true;
            }
            if (result == WaitResult.CANCELLED || listener.isCancelled() || Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
    }

    @Override
    protected void cancelCallback() {
        batches.stop();
    }
}
