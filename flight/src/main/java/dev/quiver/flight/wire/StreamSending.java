package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.flight.FlightCompression;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * One {@code DoGet} on the codec's path: the schema, then for each host batch its dictionaries and its record
 * batch, each message encoded from the batch's memory ({@link FlightDataEncoder}) and handed to gRPC, which
 * writes it without a copy. Dictionaries go with every batch that has them, replacing those sent before, as
 * the IPC stream format allows, so batches of one stream may change their dictionaries.
 *
 * <p><b>Backpressure.</b> Before each message the sending thread waits until gRPC is ready
 * ({@link MessageSending}), so a slow reader holds the server
 * to the message being written, the batch being encoded and the one the source prepares. <b>Cancellation.</b>
 * The cancel handler stops the source and wakes the sender, which releases every message not sent and closes
 * the source, releasing every batch it made. <b>Errors.</b> A source that fails ends the call with
 * {@code INTERNAL} naming the stream, as Flight's {@code DoGet} does; an unknown ticket with {@code NOT_FOUND}.
 *
 * <p><b>Threading.</b> The sending loop runs on one task of the executor; gRPC's handlers only set flags and
 * signal. The observer is written by the sending thread alone.
 */
final class StreamSending implements Runnable {
    private final CodecDoGet.Served served;
    private final ServerCallStreamObserver<FlightMessage> replies;
    private final FlightCompression compression;
    private final MessageSending sending;
    private volatile CodecDoGet.HostBatchSource source;

    private StreamSending(CodecDoGet.Served served, ServerCallStreamObserver<FlightMessage> replies, FlightCompression compression) {
        this.served = served;
        this.replies = replies;
        this.compression = compression;
        this.sending = new MessageSending(replies);
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
        replies.setOnReadyHandler(sending.sending::signal);
        replies.setOnCancelHandler(sending::cancel);
        executor.execute(sending);
    }

    @Override
    public void run() {
        try {
            source = served.open().get();
            if (sending.cancelled()) {
                return;
            }
            if (!sending.send(List.of(FlightDataEncoder.schema(served.schema(), null)))) {
                return;
            }
            for (DeviceArray next = source.next(); next != null; next = source.next()) {
                List<OutgoingMessage> messages;
                try (DeviceArray batch = next) {
                    messages = FlightDataEncoder.batch(batch, true, null, compression);
                }
                if (!sending.send(messages)) {
                    return;
                }
            }
            if (!sending.cancelled()) {
                replies.onCompleted();
            }
        } catch (RuntimeException | Error e) {
            if (!sending.cancelled()) {
                replies.onError(Status.INTERNAL.withDescription("serving " + served.name() + " failed: " + e.getMessage()).withCause(e).asRuntimeException());
            }
        } finally {
            CodecDoGet.HostBatchSource opened = source;
            if (opened != null) {
                opened.close();
            }
        }
    }

    private void cancel() {
        sending.cancel();
        CodecDoGet.HostBatchSource opened = source;
        if (opened != null) {
            opened.stop();
        }
    }
}
