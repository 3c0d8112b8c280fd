package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.flight.wire.CodecDoGet;
import dev.quiver.stream.DeviceArrayStream;

/**
 * The batches of a {@link DeviceArrayStream} as CPU arrays, one batch ahead, for the codec's {@code DoGet}: a
 * thread of its own pulls batch n+1 from the stream and, unless it is already on the CPU, copies it to the host
 * ({@link Copies#toHost}: through the pool of pinned host memory where the device has one) while
 * batch n is written to the network (see {@link Handoff}). At most one batch waits in between.
 *
 * <p><b>Ownership.</b> Takes the stream: {@link #close()} closes it (stopping the thread after its current
 * batch) and every batch made but not taken. Batches {@link #next()} returns belong to the caller.
 *
 * <p><b>Threading.</b> {@link #next()} from one thread at a time; {@link #stop()} from any thread;
 * {@link #close()} once, by the owner. The stream is used only by the prefetch thread.
 */
final class HostArrays implements CodecDoGet.HostBatchSource {
    private final DeviceArrayStream stream;
    private final Handoff<DeviceArray> prefetch;

    /**
     * @param stream the stream; owned by this object from now on
     * @param name   names the prefetch thread
     */
    HostArrays(DeviceArrayStream stream, String name) {
        this.stream = stream;
        this.prefetch = new Handoff<>("quiver-flight-prefetch-" + name, handoff -> {
            while (!handoff.isStopped() && stream.hasNext()) {
                DeviceArray batch = onHost(stream.next());
                if (!handoff.offer(batch)) {
                    batch.close();
                }
            }
        });
    }

    /** @return the batch itself if on the CPU, else its host copy (the batch closed); consumes the batch */
    private static DeviceArray onHost(DeviceArray batch) {
        if (batch.deviceType().equals(DeviceType.CPU)) {
            return batch;
        }
        try (batch) {
            return Copies.toHost(batch);
        }
    }

    @Override
    public DeviceArray next() {
        return prefetch.takeRethrowing();
    }

    @Override
    public void stop() {
        prefetch.stop();
    }

    @Override
    public void close() {
        prefetch.stop();
        stream.close();
        prefetch.finish(DeviceArray::close);
    }
}
