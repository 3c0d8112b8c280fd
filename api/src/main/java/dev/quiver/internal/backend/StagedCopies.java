package dev.quiver.internal.backend;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.internal.abi.ParallelCopies;
import dev.quiver.internal.pool.PinnedRanges;
import dev.quiver.internal.pool.PoolDefaults;
import dev.quiver.internal.pool.StreamOrder;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;

/**
 * Copies between a device and host memory that is not pinned for it (an application's {@code malloc}, another
 * producer's buffers), through pinned staging buffers of the device's pinned host pool, in chunks: the host
 * copies one chunk into a staging buffer while the device transfers the previous one, so the two overlap
 * instead of the driver pinning or bouncing the whole range. An upload returns once the last chunk is
 * enqueued (the caller's memory is no longer read; the staging buffers return to their pool in stream
 * order); a download returns once every byte is in the caller's memory. The host's part of each chunk is split
 * over a few threads ({@link ParallelCopies}), since one thread's {@code memcpy} is slower than the device's
 * transfer.
 *
 * <p>Used for copies of at least {@link #THRESHOLD} bytes (system property {@code quiver.staging.threshold},
 * 1 MiB) on devices with events whose pinned host memory the {@link dev.quiver.memory.PinnedHostPolicy} allows;
 * chunks are a quarter of the copy, from 1 MiB to {@link #CHUNK} bytes ({@code quiver.staging.chunk}, 8 MiB). Stateless; any thread (each call uses its
 * own staging buffers and events).
 */
final class StagedCopies {
    /** Copies from this size up are staged. */
    static final long THRESHOLD = size("quiver.staging.threshold", 1L << 20);
    /** Bytes per chunk at most. */
    static final long CHUNK = size("quiver.staging.chunk", 8L << 20);
    /** Bytes per chunk at least, where the copy is larger. */
    private static final long SMALLEST_CHUNK = 1L << 20;
    /** Staging buffers in flight per copy. */
    private static final int SLOTS = 3;

    private StagedCopies() {}

    /**
     * @param memory the host side of a copy
     * @return whether a copy of it of this size should be staged
     */
    static boolean worthStaging(MemorySegment memory) {
        return memory.byteSize() >= THRESHOLD && memory.isNative() && !PinnedRanges.contains(memory);
    }

    /**
     * Uploads {@code source} in chunks through staging buffers.
     *
     * @param device      the device, without the API's checks
     * @param pinned      the checked view of host memory pinned for it, whose pool gives the staging buffers
     * @param order       the device's stream order, in which the staging buffers go back
     * @param source      host memory, read before this returns
     * @param destination device memory
     * @param offset      byte offset into {@code destination}
     * @param stream      the stream to order the copies on
     */
    static void upload(BackendDevice device, CheckedBackendDevice pinned, StreamOrder order, MemorySegment source,
                       MemorySegment destination, long offset, MemorySegment stream) {
        MemorySegment[] buffers = new MemorySegment[SLOTS];
        MemorySegment[] events = new MemorySegment[SLOTS];
        DeviceEvents made = device.capability(DeviceEvents.class).orElseThrow();
        long size = source.byteSize();
        long chunk = chunkFor(size);
        try {
            int slot = 0;
            for (long done = 0; done < size; done += chunk, slot = (slot + 1) % SLOTS) {
                long n = Math.min(chunk, size - done);
                if (buffers[slot] == null) {
                    buffers[slot] = pinned.allocate(chunk, 64);
                } else {
                    finish(made, events, slot);
                }
                ParallelCopies.copy(source, done, buffers[slot], 0, n);
                device.copyFromHost(buffers[slot].asSlice(0, n), destination, offset + done, stream);
                events[slot] = made.recordNewEvent(stream);
            }
        } finally {
            letGo(made, pinned, order, buffers, events, stream);
        }
    }

    /**
     * Downloads into {@code destination} in chunks through staging buffers; returns once all of it is there.
     *
     * @param device      the device, without the API's checks
     * @param pinned      the checked view of host memory pinned for it
     * @param order       the device's stream order
     * @param source      device memory
     * @param offset      byte offset into {@code source}
     * @param destination host memory to fill
     * @param stream      the stream to order the copies on
     */
    static void download(BackendDevice device, CheckedBackendDevice pinned, StreamOrder order, MemorySegment source,
                         long offset, MemorySegment destination, MemorySegment stream) {
        MemorySegment[] buffers = new MemorySegment[SLOTS];
        MemorySegment[] events = new MemorySegment[SLOTS];
        DeviceEvents made = device.capability(DeviceEvents.class).orElseThrow();
        long size = destination.byteSize();
        long chunk = chunkFor(size);
        try {
            long chunks = (size + chunk - 1) / chunk;
            for (long i = 0; i <= chunks; i++) {
                if (i < chunks) {
                    int slot = (int) (i % SLOTS);
                    long n = Math.min(chunk, size - i * chunk);
                    if (buffers[slot] == null) {
                        buffers[slot] = pinned.allocate(chunk, 64);
                    }
                    device.copyToHost(source, offset + i * chunk, buffers[slot].asSlice(0, n), stream);
                    events[slot] = made.recordNewEvent(stream);
                }
                if (i > 0) {
                    long previous = i - 1;
                    int slot = (int) (previous % SLOTS);
                    long n = Math.min(chunk, size - previous * chunk);
                    finish(made, events, slot);
                    ParallelCopies.copy(buffers[slot], 0, destination, previous * chunk, n);
                }
            }
        } finally {
            letGo(made, pinned, order, buffers, events, stream);
        }
    }

    /**
     * @return the chunk for a copy of {@code size} bytes: a quarter of it, so that four chunks overlap, within
     *         [1 MiB, {@link #CHUNK}] and a multiple of 64 KiB (the copy itself where it is smaller)
     */
    static long chunkFor(long size) {
        long quarter = (size / 4 + 0xFFFF) & ~0xFFFFL;
        return Math.min(size, Math.max(SMALLEST_CHUNK, Math.min(CHUNK, quarter)));
    }

    /** Waits for a slot's last transfer and lets go of its event. */
    private static void finish(DeviceEvents device, MemorySegment[] events, int slot) {
        MemorySegment event = events[slot];
        events[slot] = null;
        try {
            device.waitEvent(event);
        } finally {
            device.destroyEvent(event);
        }
    }

    /** Lets go of the events; the staging buffers go back to the pinned pool once the stream's work completes. */
    private static void letGo(DeviceEvents device, CheckedBackendDevice pinned, StreamOrder order, MemorySegment[] buffers,
                              MemorySegment[] events, MemorySegment stream) {
        for (MemorySegment event : events) {
            if (event != null) {
                device.destroyEvent(event);
            }
        }
        boolean any = false;
        for (MemorySegment buffer : buffers) {
            any |= buffer != null;
        }
        if (any) {
            order.mark(stream).then(() -> {
                for (MemorySegment buffer : buffers) {
                    if (buffer != null) {
                        pinned.free(buffer);
                    }
                }
            });
        }
    }

    private static long size(String property, long fallback) {
        String value = System.getProperty(property);
        return value == null ? fallback : Math.max(1, PoolDefaults.bytes(property, value));
    }
}
