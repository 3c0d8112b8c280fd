package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The batches of one fetched Flight stream as they arrive, one held back at a time, landed on a target device as
 * the consumer takes them. What receives them is the subclass's: {@link #receive()} gives the next batch on the CPU,
 * {@link #land} moves it to the target, {@link #stopReceiving()} ends the call.
 *
 * <p><b>Ownership.</b> The batch held back between {@link #hasNext()} and {@link #next()} is this object's and is
 * released by {@link #close()}; each array {@link #next()} returns is the caller's. The connection given, if any,
 * is closed after the call.
 *
 * <p><b>Threading.</b> {@link #hasNext()}, {@link #next()} and {@link #close()} from one thread at a time.
 */
abstract sealed class ArrivingBatches implements Iterator<DeviceArray>, AutoCloseable permits CodecBatches, LandedBatches {
    final Device target;
    final String what;
    private final AutoCloseable connection;
    private DeviceArray pending;
    private boolean finished;
    private boolean closed;
    private long delivered;

    /**
     * @param target     where the batches land
     * @param what       names the stream in messages
     * @param connection closed after the call, or null: a connection opened for this stream alone
     */
    ArrivingBatches(Device target, String what, AutoCloseable connection) {
        this.target = target;
        this.what = what;
        this.connection = connection;
    }

    /**
     * {@return the next batch received, on the CPU and checked, owned by the caller; null at the end of the stream}
     * @throws FlightTransferException    if the call failed, naming {@code delivered} batches
     * @throws InvalidFlightDataException if a message broke the format
     */
    abstract DeviceArray receive(long delivered);

    /** {@return the received batch on the target; takes {@code received}} */
    abstract DeviceArray land(DeviceArray received);

    /** Ends the call if it still runs and releases what it received and this object does not hold; once. */
    abstract void stopReceiving();

    @Override
    public final boolean hasNext() {
        if (pending == null && !finished) {
            try {
                pending = receive(delivered);
            } catch (RuntimeException | Error e) {
                finished = true;
                throw e;
            }
            finished = pending == null;
        }
        return pending != null;
    }

    @Override
    public final DeviceArray next() {
        if (!hasNext()) {
            throw new NoSuchElementException(what + " has no more batches");
        }
        DeviceArray received = pending;
        pending = null;
        delivered++;
        return land(received);
    }

    /** Ends the call if it is still running, releases what was not taken, closes the connection; idempotent. */
    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stopReceiving();
        } finally {
            if (pending != null) {
                pending.close();
                pending = null;
            }
            closeConnection();
        }
    }

    private void closeConnection() {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // The connection's channel is shut down either way; the consumer has nothing left to learn from it.
        }
    }
}
