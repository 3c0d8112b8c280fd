package dev.quiver.flight.wire;

import io.grpc.stub.CallStreamObserver;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes {@code FlightData} messages to one call as gRPC's flow control allows: before each message the sending
 * thread waits until the call {@code isReady} (fewer bytes queued than its threshold), woken by the call's ready
 * handler ({@link #signal()}) or, at the latest, every {@value #LONGEST_WAIT_MILLIS} ms. The same loop serves a
 * server's {@code DoGet} replies ({@link StreamSending}) and a client's {@code DoPut} requests ({@link CodecPut}).
 *
 * <p><b>Ownership.</b> {@link #send} takes over the messages it is given: each is streamed by gRPC or closed.
 * <b>Threading.</b> {@link #send} from the one sending thread; {@link #signal()} and {@link #cancel()} from any
 * thread (gRPC's handlers), which only set a flag and wake the sender.
 */
final class MessageSending {
    private static final long LONGEST_WAIT_MILLIS = 50;

    private final CallStreamObserver<FlightMessage> call;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private volatile boolean cancelled;

    /** @param call the call's sending side, written by the sending thread alone */
    MessageSending(CallStreamObserver<FlightMessage> call) {
        this.call = call;
    }

    /**
     * Sends the messages in order, each when gRPC is ready.
     *
     * @param messages owned by this call from now on
     * @return true if all were handed to gRPC; false (every message released) if the call was cancelled first
     */
    boolean send(List<? extends FlightMessage> messages) {
        int sent = 0;
        try {
            for (; sent < messages.size(); sent++) {
                if (!awaitReady()) {
                    return false;
                }
                try {
                    call.onNext(messages.get(sent));
                } finally {
                    // gRPC streams a message within onNext, after which closing it does nothing; a message it
                    // dropped (the call was cancelled meanwhile) is released here
                    messages.get(sent).close();
                }
            }
            return true;
        } finally {
            messages.subList(Math.min(sent, messages.size()), messages.size()).forEach(FlightMessage::close);
        }
    }

    /** {@return whether the call was cancelled (by the peer, or by {@link #cancel()})} */
    boolean cancelled() {
        return cancelled;
    }

    /** Wakes the sender: gRPC's ready handler. */
    void signal() {
        lock.lock();
        try {
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Marks the call cancelled and wakes the sender, which sends nothing more. */
    void cancel() {
        cancelled = true;
        signal();
    }

    private boolean awaitReady() {
        lock.lock();
        try {
            while (!cancelled && !call.isReady()) {
                ready.await(LONGEST_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            }
            return !cancelled;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
