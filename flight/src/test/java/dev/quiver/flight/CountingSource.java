package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.ImportOptions;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A stream of batches made on demand on a device, counting what it made and whether it was closed, so a
 * test can see how far a server read ahead and that a stream it served was released. Pulled by one thread
 * at a time (the C stream serializes calls); the counters are shared and thread-safe.
 */
final class CountingSource implements Iterator<DeviceArray>, AutoCloseable {
    /** Batches made by every source, since start. */
    static final AtomicLong MADE = new AtomicLong();
    /** Sources closed, since start. */
    static final AtomicLong CLOSED = new AtomicLong();

    private final int count;
    private final IntFunction<DeviceArray> batch;
    private final Device device;
    private int next;

    private CountingSource(int count, IntFunction<DeviceArray> batch, Device device) {
        this.count = count;
        this.batch = batch;
        this.device = device;
    }

    /**
     * @param schema the struct field of every batch
     * @param count  how many batches
     * @param batch  makes batch i on the host (the CPU)
     * @param device where the batches are put before they are served
     * @return a stream, owned by the caller
     */
    static DeviceArrayStream stream(Field schema, int count, IntFunction<DeviceArray> batch, Device device) {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            DeviceArrayStream.of(schema, device.type(), new CountingSource(count, batch, device)).exportTo(out);
            return DeviceArrayStream.importFrom(out, ImportOptions.on(Devices.system()));
        }
    }

    @Override
    public boolean hasNext() {
        return next < count;
    }

    @Override
    public DeviceArray next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        DeviceArray onHost = batch.apply(next++);
        MADE.incrementAndGet();
        if (device.type().equals(dev.quiver.DeviceType.CPU)) {
            return onHost;
        }
        try (onHost) {
            return Copies.toDevice(onHost, device);
        }
    }

    @Override
    public void close() {
        CLOSED.incrementAndGet();
    }
}
