package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.flight.FlightCompression;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One {@code DoGet} on the codec's path: the schema, then for each host batch its dictionaries and its record
 * batch, each message encoded from the batch's memory ({@link FlightDataEncoder}) and handed to gRPC, which
 * writes it without a copy. Dictionaries go with every batch that has them, replacing those sent before, as
 * the IPC stream format allows, so batches of one stream may change their dictionaries.
 *
 * <p><b>Backpressure.</b> Before each message the sending thread waits until gRPC's {@code isReady} (fewer
 * bytes queued than the call's threshold), woken by the call's ready handler, so a slow reader holds the server
 * to the message being written, the batch being encoded and the one the source prepares. <b>Cancellation.</b>
 * The cancel handler stops the source and wakes the sender, which releases every message not sent and closes
 * the source, releasing every batch it made. <b>Errors.</b> A source that fails ends the call with
 * {@code INTERNAL} naming the stream, as Flight's {@code DoGet} does; an unknown ticket with {@code NOT_FOUND}.
 *
 * <p><b>Threading.</b> The sending loop runs on one task of the executor; gRPC's handlers only set flags and
 * signal. The observer is written by the sending thread alone.
 */
final class StreamSending implements Runnable {
    private static final long LONGEST_WAIT_MILLIS = 50;

    private final CodecDoGet.Served served;
    private final ServerCallStreamObserver<FlightMessage> replies;
    private final FlightCompression compression;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private volatile boolean cancelled;
    private volatile CodecDoGet.HostBatchSource source;

    private StreamSending(CodecDoGet.Served served, ServerCallStreamObserver<FlightMessage> replies, FlightCompression compression) {
        this.served = served;
        this.replies = replies;
        this.compression = compression;
    }

    /**
     * Sets the call's handlers and starts sending on {@code executor}; returns at once (gRPC's handlers run on
     * the thread that calls this).
     *
     * @param served   the stream, or null for a ticket no longer served
     * @param replies  the call
     * @param executor    runs the sending loop
     * @param compression how the bodies of the batches are compressed
     */
    static void start(CodecDoGet.Served served, ServerCallStreamObserver<FlightMessage> replies, Executor executor, FlightCompression compression) {
        if (served == null) {
            replies.onError(Status.NOT_FOUND.withDescription("the ticket's stream is no longer served").asRuntimeException());
            return;
        }
        StreamSending sending = new StreamSending(served, replies, compression);
        replies.setOnReadyHandler(sending::signal);
        replies.setOnCancelHandler(sending::cancel);
        executor.execute(sending);
    }

    @Override
    public void run() {
        try {
            source = served.open().get();
            if (cancelled) {
                return;
            }
            if (!send(List.of(FlightDataEncoder.schema(served.schema(), null)))) {
                return;
            }
            for (DeviceArray next = source.next(); next != null; next = source.next()) {
                List<OutgoingMessage> messages;
                try (DeviceArray batch = next) {
                    messages = FlightDataEncoder.batch(batch, true, null, compression);
                }
                if (!send(messages)) {
                    return;
                }
            }
            if (!cancelled) {
                replies.onCompleted();
            }
        } catch (RuntimeException | Error e) {
            if (!cancelled) {
                replies.onError(Status.INTERNAL.withDescription("serving " + served.name() + " failed: " + e.getMessage()).withCause(e).asRuntimeException());
            }
        } finally {
            CodecDoGet.HostBatchSource opened = source;
            if (opened != null) {
                opened.close();
            }
        }
    }

    /** Sends the messages in order, each when gRPC is ready; false (every message released) if the call was cancelled. */
    private boolean send(List<? extends FlightMessage> messages) {
        int sent = 0;
        try {
            for (; sent < messages.size(); sent++) {
                if (!awaitReady()) {
                    return false;
                }
                try {
                    replies.onNext(messages.get(sent));
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

    private boolean awaitReady() {
        lock.lock();
        try {
            while (!cancelled && !replies.isReady()) {
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

    private void signal() {
        lock.lock();
        try {
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void cancel() {
        cancelled = true;
        CodecDoGet.HostBatchSource opened = source;
        if (opened != null) {
            opened.stop();
        }
        signal();
    }
}
