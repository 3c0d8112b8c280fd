package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Copies between host memory and a device's buffers, with or without staging.
 *
 * <p><b>Mapped buffers.</b> A buffer of this device whose memory is host-visible has a {@link HostMapping};
 * its copies are host memory copies on the mapped pointer, with no staging buffer and no command. Host to
 * device: when neither the stream nor any other stream has work pending on the buffer, the bytes are written
 * at once, under the stream's lock; otherwise they are staged, so that the copy keeps its place in the
 * stream without blocking the caller. Device to host: the caller waits for the stream's work and the work
 * pending on the buffer, then the bytes are read, when the memory is host-cached (uncached memory, which the
 * host reads slowly, is staged instead).
 *
 * <p><b>Staged copies.</b> Every other buffer (device-local memory the host cannot map, buffers made by other
 * code) goes through a staging buffer of the device's {@link StagingPool} and {@code vkCmdCopyBuffer} on the
 * stream, in pieces of at most {@link #CHUNK} bytes with up to three in flight: the host fills (or empties) one
 * staging buffer while the device copies another, and staging buffers stay small enough to be reused. Host to
 * device returns once the bytes are staged; device to host waits for the copy.
 *
 * <p>Either way the host source may be reused, and the host destination read, as soon as the method returns.
 * Thread-safe, as streams and the pool are; owns nothing.
 */
final class HostTransfers {
    /** A staged copy moves in pieces of at most this many bytes, so that staging buffers are reused and the host's copy of one piece overlaps the device's of the previous. */
    static final long CHUNK = 8L << 20;
    /** Staged pieces in flight at once per copy. */
    private static final int IN_FLIGHT = 3;

    private final DeviceContext context;

    HostTransfers(DeviceContext context) {
        this.context = context;
    }

    /**
     * Copies all of {@code source} to {@code offset} of {@code buffer}, in {@code target}'s order.
     *
     * @param allocation the buffer's allocation, or null for a buffer of other code
     */
    void toDevice(SubmissionChain target, MemorySegment source, long buffer, long offset, Allocation allocation) {
        VkDevice device = context.device();
        HostMapping mapping = allocation == null ? null : allocation.mapping;
        if (mapping != null && allocation.idle(device) && target.runIfIdle(() -> mapping.write(device, source, offset))) {
            return;
        }
        long bytes = source.byteSize();
        ArrayDeque<Submission> inFlight = new ArrayDeque<>();
        for (long done = 0; done < bytes; done += CHUNK) {
            long size = Math.min(CHUNK, bytes - done);
            if (inFlight.size() == IN_FLIGHT) {
                inFlight.poll().await(device);
                target.retireCompleted();
            }
            StagingPool.StagingBuffer staging = context.staging().acquire(size);
            try {
                staging.mapping().write(device, source.asSlice(done, size), 0);
            } catch (RuntimeException | Error e) {
                context.staging().release(staging);
                throw e;
            }
            long stagingBuffer = staging.memory().buffer();
            long at = offset + done;
            inFlight.add(target.submit(commands -> Commands.copy(commands, stagingBuffer, 0, buffer, at, size),
                    List.of(() -> context.staging().release(staging)), used(allocation)));
        }
    }

    /**
     * Copies {@code destination.byteSize()} bytes from {@code offset} of {@code buffer} after {@code target}'s
     * work, and returns when they are in {@code destination}.
     *
     * @param allocation the buffer's allocation, or null for a buffer of other code
     */
    void toHost(SubmissionChain target, long buffer, long offset, MemorySegment destination, Allocation allocation) {
        VkDevice device = context.device();
        HostMapping mapping = allocation == null ? null : allocation.mapping;
        if (mapping != null && mapping.cached()) {
            target.synchronize();
            allocation.awaitUsers(device);
            mapping.read(device, offset, destination);
            return;
        }
        long bytes = destination.byteSize();
        ArrayDeque<Chunk> inFlight = new ArrayDeque<>();
        try {
            for (long done = 0; done < bytes; done += CHUNK) {
                long size = Math.min(CHUNK, bytes - done);
                StagingPool.StagingBuffer staging = context.staging().acquire(size);
                long stagingBuffer = staging.memory().buffer();
                long at = offset + done;
                Submission submission;
                try {
                    submission = target.submit(commands -> Commands.copy(commands, buffer, at, stagingBuffer, 0, size),
                            List.of(), used(allocation));
                } catch (RuntimeException | Error e) {
                    context.staging().release(staging);
                    throw e;
                }
                inFlight.add(new Chunk(staging, submission, done, size));
                if (inFlight.size() == IN_FLIGHT) {
                    inFlight.poll().land(device, destination, context);
                }
            }
            while (!inFlight.isEmpty()) {
                inFlight.poll().land(device, destination, context);
            }
        } finally {
            for (Chunk chunk : inFlight) {
                chunk.submission.await(device);
                context.staging().release(chunk.staging);
            }
        }
        target.retireCompleted();
    }

    /** One staged piece of a download: where it lands, and the copy that fills its staging buffer. */
    private record Chunk(StagingPool.StagingBuffer staging, Submission submission, long at, long size) {
        /** Waits for the copy, reads the staging buffer into its place and gives the buffer back. */
        void land(VkDevice device, MemorySegment destination, DeviceContext context) {
            try {
                submission.await(device);
                staging.mapping().read(device, 0, destination.asSlice(at, size));
            } finally {
                context.staging().release(staging);
            }
        }
    }

    private static List<Tracked> used(Allocation allocation) {
        return allocation == null ? List.of() : List.of(allocation);
    }
}
