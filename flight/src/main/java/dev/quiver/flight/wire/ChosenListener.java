package dev.quiver.flight.wire;

import io.grpc.ServerCall;

/**
 * A call's listener that picks the handler to pass the call to once it has seen the call's first message (by
 * ticket, by what the first message is), then passes the call's later events to the listener that handler
 * returned. Subclasses set {@link #chosen} when they start that handler and pass messages and the half-close
 * themselves; cancellation, completion and readiness go to {@link #chosen} once there is one.
 *
 * <p><b>Threading.</b> gRPC calls a listener from one thread at a time, never concurrently: no locking.
 *
 * @param <M> the messages the call receives
 * @param <Q> the messages of the chosen handler
 */
abstract class ChosenListener<M, Q> extends ServerCall.Listener<M> {
    /** The chosen handler's listener; null until the first message chose it. */
    ServerCall.Listener<Q> chosen;

    @Override
    public final void onCancel() {
        if (chosen != null) {
            chosen.onCancel();
        }
    }

    @Override
    public final void onComplete() {
        if (chosen != null) {
            chosen.onComplete();
        }
    }

    @Override
    public final void onReady() {
        if (chosen != null) {
            chosen.onReady();
        }
    }
}
