package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The batches of a Flight stream as device arrays on a target device. A receiving thread of its own reads
 * batch n+1 from the network (and exports it, zero-copy, as a CPU array) while the consumer's thread copies
 * batch n to the target in {@link #next()}; at most one received batch waits in between (see {@link Handoff}).
 *
 * <p><b>Ownership.</b> Takes the Flight stream: {@link #close()} cancels it if it has not ended, stops the
 * receiving thread and releases every batch received but not taken. Each array {@link #next()} returns is
 * the caller's and outlives this object; a batch landed on the CPU shares the buffers Arrow Java received
 * into, which the {@code allocator} is charged for until the array is closed.
 *
 * <p><b>Threading.</b> {@link #hasNext()} and {@link #next()} from one thread at a time (the C stream
 * serializes them), and {@link #close()} once, by the same serialized caller. The Flight stream is read only by
 * the receiving thread.
 *
 * <p><b>Checks.</b> Every batch is checked as untrusted input against the buffers that arrived before it is
 * handed over or moved to the target ({@link ReceivedBatchCheck}); a batch that breaks the format ends the
 * stream with an {@link InvalidFlightDataException} after the batches before it.
 *
 * <p><b>Errors.</b> When the stream fails (the server went away, the call was refused or cancelled), the
 * batches received before the failure are still delivered, then {@link #hasNext()} throws a
 * {@link FlightTransferException} that names how many batches arrived.
 */
final class LandedBatches extends ArrivingBatches {
    private final FlightStream stream;
    private final Handoff<DeviceArray> receiver;
    private volatile boolean ended;

    /**
     * @param stream        a Flight stream whose schema arrived; owned by this object from now on
     * @param target        where the batches land
     * @param allocator     charged for the received buffers until each batch is landed (or, on the CPU, closed)
     * @param devices       the registry the arrays use for copies
     * @param what          names the stream in messages and the receiving thread
     * @param bytesReceived counts the bytes of Arrow data received (the buffers of each batch)
     * @param connection    closed after the stream, or null: a connection opened for this stream alone
     */
    LandedBatches(FlightStream stream, Device target, BufferAllocator allocator, Devices devices, String what, AtomicLong bytesReceived,
                  AutoCloseable connection) {
        super(target, what, connection);
        this.stream = stream;
        this.receiver = new Handoff<>("quiver-flight-receive-" + what, handoff -> {
            try {
                for (long index = 0; !handoff.isStopped(); index++) {
                    DeviceArray batch = ReceivedBatchCheck.next(stream, allocator, devices, what, index);
                    if (batch == null) {
                        break;
                    }
                    bytesReceived.addAndGet(stream.getRoot().getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum());
                    if (!handoff.offer(batch)) {
                        batch.close();
                    }
                }
            } finally {
                ended = true;
            }
        });
    }

    @Override
    DeviceArray receive(long delivered) {
        try {
            return receiver.take();
        } catch (Handoff.WorkerFailure failure) {
            if (failure.getCause() instanceof InvalidFlightDataException invalid) {
                throw invalid;
            }
            throw new FlightTransferException(what + " failed after " + delivered + " batch(es) arrived: " + failure.getMessage(), failure.getCause());
        }
    }

    @Override
    DeviceArray land(DeviceArray received) {
        return land(received, target);
    }

    /**
     * @param received a batch on the CPU; owned by this call
     * @param target   where it lands
     * @return the batch itself on the CPU, else its copy on {@code target} (the received batch closed)
     */
    static DeviceArray land(DeviceArray received, Device target) {
        if (target.type().equals(DeviceType.CPU)) {
            return received;
        }
        try (received) {
            return Copies.toDevice(received, target);
        }
    }

    /**
     * {@link #land} on the target's default stream: where the target has events the copy returns before it
     * completes and keeps the received batch alive until it does, so the upload overlaps what the caller does next.
     *
     * @param received a batch on the CPU; owned by this call
     * @param target   where it lands
     * @return the batch itself on the CPU, else its copy on {@code target} (the received batch closed)
     */
    static DeviceArray landOverlapped(DeviceArray received, Device target) {
        if (target.type().equals(DeviceType.CPU)) {
            return received;
        }
        try (received) {
            return Copies.toDevice(received, target, target.defaultStream());
        }
    }

    /** Cancels the call if it is still running, stops receiving, releases what was received and not taken. */
    @Override
    void stopReceiving() {
        receiver.stop();
        if (!ended) {
            cancel();
        }
        receiver.finish(DeviceArray::close);
        try {
            stream.close();
        } catch (Exception e) {
            // A cancelled call drains with the cancellation as its status: nothing to report to a consumer that left.
        }
    }

    /** Cancels a call still running; a stream a client puts cannot be cancelled by the server, only stopped reading. */
    private void cancel() {
        try {
            stream.cancel("the consumer closed the stream", null);
        } catch (UnsupportedOperationException serverSide) {
            // The receiving thread stops at its next batch; closing the stream drains the rest.
        }
    }
}
