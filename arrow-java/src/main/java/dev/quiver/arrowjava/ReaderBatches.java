package dev.quiver.arrowjava;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The batches of an {@link ArrowReader} as CPU DeviceArrays: each {@link ArrowReader#loadNextBatch()} is
 * exported zero-copy, so a batch handed out keeps its buffers after the reader moves on. Pulled by one thread
 * at a time (the stream export serializes its callbacks); closing closes the reader.
 */
final class ReaderBatches implements Iterator<DeviceArray>, AutoCloseable {
    private final ArrowReader reader;
    private final BufferAllocator allocator;
    private final Devices devices;
    private final boolean validated;
    private DeviceArray pending;
    private boolean ended;

    /**
     * @param validated whether each batch is validated as untrusted input against the buffers the reader
     *                  read it into ({@link VectorExport#toValidatedDeviceArray}) before it is handed out
     */
    ReaderBatches(ArrowReader reader, BufferAllocator allocator, Devices devices, boolean validated) {
        this.reader = reader;
        this.allocator = allocator;
        this.devices = devices;
        this.validated = validated;
    }

    @Override
    public boolean hasNext() {
        if (pending == null && !ended) {
            try {
                if (reader.loadNextBatch()) {
                    pending = validated
                            ? VectorExport.toValidatedDeviceArray(reader.getVectorSchemaRoot(), reader, allocator, devices)
                            : VectorExport.toDeviceArray(reader.getVectorSchemaRoot(), reader, allocator, devices);
                } else {
                    ended = true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("ArrowReader.loadNextBatch failed: " + e.getMessage(), e);
            }
        }
        return pending != null;
    }

    @Override
    public DeviceArray next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the ArrowReader has no more batches");
        }
        DeviceArray out = pending;
        pending = null;
        return out;
    }

    /** Closes a batch fetched but never taken, then the reader. */
    @Override
    public void close() throws IOException {
        try {
            if (pending != null) {
                pending.close();
                pending = null;
            }
        } finally {
            reader.close();
        }
    }
}
