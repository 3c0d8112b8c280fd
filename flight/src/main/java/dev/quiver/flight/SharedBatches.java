package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The batches of a stream received from a server on the same host through a {@link ShareClient}, landed on a
 * target device: CPU batches are handed out as received (they read the server's memory, mapped here); for any
 * other target each one is copied there and the received one closed, as {@link LandedBatches} does. The share
 * client checks every batch as untrusted input before it is handed out.
 *
 * <p><b>Ownership.</b> Takes the share client and closes it in {@link #close()}, with a batch received but not
 * taken; arrays handed out belong to the caller and stay readable after that.
 *
 * <p><b>Threading.</b> {@link #hasNext()}, {@link #next()} and {@link #close()} from one thread at a time (the
 * stream around it serializes them); the counts may be read from any thread.
 */
final class SharedBatches implements Iterator<DeviceArray>, AutoCloseable {
    private final ShareClient client;
    private final Device target;
    private final String what;
    private final AtomicLong zeroCopy = new AtomicLong();
    private final AtomicLong received = new AtomicLong();
    private DeviceArray pending;
    private boolean finished;
    private boolean closed;

    /**
     * @param client connected, its schema received; owned by this object from now on
     * @param target where the batches land
     * @param what   names the stream in messages
     */
    SharedBatches(ShareClient client, Device target, String what) {
        this.client = client;
        this.target = target;
        this.what = what;
    }

    @Override
    public boolean hasNext() {
        if (pending == null && !finished) {
            Optional<ReceivedBatch> batch;
            try {
                batch = client.next();
            } catch (RuntimeException e) {
                finished = true;
                throw new FlightTransferException(what + " failed after " + received.get() + " batch(es) arrived through the same-host socket: "
                        + e.getMessage(), e);
            }
            if (batch.isEmpty()) {
                finished = true;
            } else {
                received.incrementAndGet();
                if (batch.get().isZeroCopy()) {
                    zeroCopy.incrementAndGet();
                }
                pending = batch.get().array();
            }
        }
        return pending != null;
    }

    @Override
    public DeviceArray next() {
        if (!hasNext()) {
            throw new NoSuchElementException(what + " has no more batches");
        }
        DeviceArray batch = pending;
        pending = null;
        return LandedBatches.land(batch, target);
    }

    /** {@return batches received so far} */
    long received() {
        return received.get();
    }

    /** {@return batches received so far that read the server's own memory, with no copy made for the handoff} */
    long zeroCopy() {
        return zeroCopy.get();
    }

    /** Closes a batch received and not taken, and the connection; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (pending != null) {
                pending.close();
                pending = null;
            }
        } finally {
            client.close();
        }
    }
}
