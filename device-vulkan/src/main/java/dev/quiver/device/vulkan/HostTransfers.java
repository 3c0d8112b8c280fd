package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;

import java.lang.foreign.MemorySegment;
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
 * stream. Host to device returns once the bytes are staged; device to host waits for the copy.
 *
 * <p>Either way the host source may be reused, and the host destination read, as soon as the method returns.
 * Thread-safe, as streams and the pool are; owns nothing.
 */
final class HostTransfers {
    private final DeviceContext context;

    HostTransfers(DeviceContext context) {
        this.context = context;
    }

    /**
     * Copies all of {@code source} to {@code offset} of {@code buffer}, in {@code target}'s order.
     *
     * @param allocation the buffer's allocation, or null for a buffer of other code
     */
    void toDevice(Stream target, MemorySegment source, long buffer, long offset, Allocation allocation) {
        VkDevice device = context.device();
        HostMapping mapping = allocation == null ? null : allocation.mapping;
        if (mapping != null && allocation.idle(device) && target.runIfIdle(() -> mapping.write(device, source, offset))) {
            return;
        }
        long bytes = source.byteSize();
        StagingPool.StagingBuffer staging = context.staging().acquire(bytes);
        try {
            staging.mapping().write(device, source, 0);
        } catch (RuntimeException | Error e) {
            context.staging().release(staging);
            throw e;
        }
        long stagingBuffer = staging.memory().buffer();
        target.submit(commands -> Commands.copy(commands, stagingBuffer, 0, buffer, offset, bytes),
                List.of(() -> context.staging().release(staging)), used(allocation));
    }

    /**
     * Copies {@code destination.byteSize()} bytes from {@code offset} of {@code buffer} after {@code target}'s
     * work, and returns when they are in {@code destination}.
     *
     * @param allocation the buffer's allocation, or null for a buffer of other code
     */
    void toHost(Stream target, long buffer, long offset, MemorySegment destination, Allocation allocation) {
        VkDevice device = context.device();
        HostMapping mapping = allocation == null ? null : allocation.mapping;
        if (mapping != null && mapping.cached()) {
            target.synchronize();
            allocation.awaitUsers(device);
            mapping.read(device, offset, destination);
            return;
        }
        long bytes = destination.byteSize();
        StagingPool.StagingBuffer staging = context.staging().acquire(bytes);
        try {
            long stagingBuffer = staging.memory().buffer();
            Submission submission = target.submit(commands -> Commands.copy(commands, buffer, offset, stagingBuffer, 0, bytes),
                    List.of(), used(allocation));
            submission.await(device);
            staging.mapping().read(device, 0, destination);
        } finally {
            context.staging().release(staging);
        }
        target.retireCompleted();
    }

    private static List<Tracked> used(Allocation allocation) {
        return allocation == null ? List.of() : List.of(allocation);
    }
}
