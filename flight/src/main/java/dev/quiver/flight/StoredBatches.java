package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;

import java.util.List;

/**
 * Batches a server keeps (those a client put), served any number of times: each fetch streams zero-copy
 * slices of them, so a fetch never consumes the stored arrays and a stored array may be closed while a fetch
 * still reads its slice.
 *
 * <p><b>Ownership.</b> Owns the arrays from construction; {@link #close()} closes them. <b>Threading.</b>
 * {@link #open()} from any thread, concurrently; {@link #close()} once, after which {@code open()} must not
 * be called.
 */
final class StoredBatches implements AutoCloseable {
    private final Field schema;
    private final DeviceType deviceType;
    private final List<DeviceArray> batches;
    private final Devices devices;
    private boolean closed;

    /**
     * @param schema     the struct field of every batch
     * @param deviceType the device type of every batch
     * @param batches    the batches; owned by this object from now on
     * @param devices    the registry of the streams it opens
     */
    StoredBatches(Field schema, DeviceType deviceType, List<DeviceArray> batches, Devices devices) {
        this.schema = schema;
        this.deviceType = deviceType;
        this.batches = List.copyOf(batches);
        this.devices = devices;
    }

    /** @return the total row count */
    long rows() {
        return batches.stream().mapToLong(DeviceArray::length).sum();
    }

    /**
     * Slices every batch at once, so that a fetch that opened the stream keeps its slices (and their memory) when
     * the batches are replaced and closed while it runs.
     *
     * @return a new stream of slices of the stored batches, owned by the caller
     * @throws IllegalStateException if the batches were closed (the stream was replaced) before it opened
     */
    synchronized DeviceArrayStream open() {
        if (closed) {
            throw new IllegalStateException("the stream was replaced by another of its name before this fetch opened it");
        }
        return DeviceArrayStream.of(schema, deviceType, new Slices(batches.stream().map(batch -> batch.slice(0, batch.length())).toList()));
    }

    /** The slices of one fetch; closing it closes those not taken. One thread at a time. */
    private static final class Slices implements java.util.Iterator<DeviceArray>, AutoCloseable {
        private final List<DeviceArray> slices;
        private int next;

        Slices(List<DeviceArray> slices) {
            this.slices = slices;
        }

        @Override
        public boolean hasNext() {
            return next < slices.size();
        }

        @Override
        public DeviceArray next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException("no more stored batches");
            }
            return slices.get(next++);
        }

        @Override
        public void close() {
            while (next < slices.size()) {
                slices.get(next++).close();
            }
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            batches.forEach(DeviceArray::close);
        }
    }
}
