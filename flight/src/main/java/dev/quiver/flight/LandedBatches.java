package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The batches of a Flight stream as device arrays on a target device. A receiving thread of its own reads
 * batch n+1 from the network (and exports it, zero-copy, as a CPU array) while the consumer's thread copies
 * batch n to the target in {@link #next()}; at most one received batch waits in between.
 *
 * <p><b>Ownership.</b> Takes the Flight stream: {@link #close()} cancels it if it has not ended, stops the
 * receiving thread and releases every batch received but not taken. Each array {@link #next()} returns is
 * the caller's and outlives this object; a batch landed on the CPU shares the buffers Arrow Java received
 * into, which the {@code allocator} is charged for until the array is closed.
 *
 * <p><b>Threading.</b> {@link #hasNext()} and {@link #next()} from one thread at a time (the C stream
 * serializes them); {@link #close()} from any thread. The Flight stream is read only by the receiving thread.
 *
 * <p><b>Errors.</b> When the stream fails (the server went away, the call was refused or cancelled), the
 * batches received before the failure are still delivered, then {@link #hasNext()} throws a
 * {@link FlightTransferException} that names how many batches arrived.
 */
final class LandedBatches implements Iterator<DeviceArray>, AutoCloseable {
    private static final Object END = new Object();
    private static final long POLL_MILLIS = 50;

    private final FlightStream stream;
    private final Device target;
    private final BufferAllocator allocator;
    private final Devices devices;
    private final String what;
    private final AtomicLong bytesReceived;
    private final BlockingQueue<Object> received = new ArrayBlockingQueue<>(1);
    private final Thread receiver;
    private volatile boolean closed;
    private volatile boolean ended;
    private Object pending;
    private long delivered;

    /**
     * @param stream    a Flight stream whose schema arrived; owned by this object from now on
     * @param target    where the batches land
     * @param allocator charged for the received buffers until each batch is landed (or, on the CPU, closed)
     * @param devices   the registry the arrays use for copies
     * @param what      names the stream in messages and the receiving thread
     * @param bytesReceived counts the bytes of Arrow data received (the buffers of each batch)
     */
    LandedBatches(FlightStream stream, Device target, BufferAllocator allocator, Devices devices, String what, AtomicLong bytesReceived) {
        this.stream = stream;
        this.target = target;
        this.allocator = allocator;
        this.devices = devices;
        this.what = what;
        this.bytesReceived = bytesReceived;
        this.receiver = Thread.ofPlatform().daemon().name("quiver-flight-receive-" + what).start(this::receive);
    }

    private void receive() {
        try {
            while (!closed && stream.next()) {
                bytesReceived.addAndGet(stream.getRoot().getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum());
                DeviceArray batch = VectorExport.toDeviceArray(stream.getRoot(), stream.getDictionaryProvider(), allocator, devices);
                if (!hand(batch)) {
                    batch.close();
                    return;
                }
            }
            ended = true;
            hand(END);
        } catch (RuntimeException | Error e) {
            ended = true;
            hand(e);
        }
    }

    private boolean hand(Object item) {
        try {
            while (!closed) {
                if (received.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    @Override
    public boolean hasNext() {
        try {
            while (pending == null && !closed) {
                pending = received.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while receiving " + what, e);
        }
        if (pending instanceof Throwable failure) {
            throw new FlightTransferException(what + " failed after " + delivered + " batch(es) arrived: " + failure.getMessage(), failure);
        }
        return pending != null && pending != END;
    }

    @Override
    public DeviceArray next() {
        if (!hasNext()) {
            throw new NoSuchElementException(what + " has no more batches");
        }
        DeviceArray received = (DeviceArray) pending;
        pending = null;
        delivered++;
        if (target.type().equals(DeviceType.CPU)) {
            return received;
        }
        try (received) {
            return received.copyTo(target);
        }
    }

    /** Cancels the call if it is still running, stops receiving, releases what was not taken; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!ended) {
            cancel();
        }
        try {
            receiver.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            stream.close();
        } catch (Exception e) {
            // A cancelled call drains with the cancellation as its status: nothing to report to a consumer that left.
        }
        release(pending);
        pending = null;
        Object item;
        while ((item = received.poll()) != null) {
            release(item);
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

    private static void release(Object item) {
        if (item instanceof DeviceArray array) {
            array.close();
        }
    }
}
