package dev.quiver.device.vulkan;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.vulkan.VK10.VK_ACCESS_TRANSFER_READ_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_TRANSFER_WRITE_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_TRANSFER_BIT;

/**
 * The copies of a {@link VulkanDevice}, each on a stream: from and to host memory (a {@code vkCmdCopyBuffer}
 * from or to a buffer of {@link HostBuffers}, else through {@link HostTransfers}), and within the device
 * ({@code vkCmdCopyBuffer}, through a temporary buffer when the ranges of one buffer overlap). Ranges in
 * buffers of {@link DeviceBuffers} are checked; other buffers are not. Each copy marks the buffers it uses,
 * so that freeing them waits for it. It owns only the temporary buffers, which the stream destroys once the
 * copy completes.
 *
 * <p>Thread-safe: every method may be called from any thread, as streams and the tables are. A host source
 * may be reused once a copy from it returns (except host memory of {@link HostBuffers}, which must stay
 * unchanged until the stream's work completes); a copy to the host is complete when it returns.
 */
final class DeviceCopies {
    private final DeviceContext context;
    private final DeviceBuffers buffers;
    private final HostBuffers hostBuffers;
    private final HostTransfers transfers;

    /**
     * @param context     the device's {@code VkDevice} and pools
     * @param buffers     the device's buffers, whose ranges copies check
     * @param hostBuffers the device's host memory, copied with no staging
     */
    DeviceCopies(DeviceContext context, DeviceBuffers buffers, HostBuffers hostBuffers) {
        this.context = context;
        this.buffers = buffers;
        this.hostBuffers = hostBuffers;
        this.transfers = new HostTransfers(context);
    }

    /** Copies all of {@code source} to {@code destinationOffset} of {@code destination}, in {@code target}'s order. */
    void fromHost(SubmissionChain target, MemorySegment source, MemorySegment destination, long destinationOffset) {
        Allocation allocation = buffers.checkRange(destination, destinationOffset, source.byteSize(), "destination");
        if (source.byteSize() == 0) {
            return;
        }
        HostBuffers.HostBuffer host = hostBuffers.holding(source);
        if (host != null) {
            long from = source.address() - host.mapped().address();
            long hostBuffer = host.memory().buffer();
            long to = destination.address();
            target.submit(commands -> Commands.copy(commands, hostBuffer, from, to, destinationOffset, source.byteSize()),
                    List.of(), allocation == null ? List.of() : List.of(allocation));
        } else {
            transfers.toDevice(target, source, destination.address(), destinationOffset, allocation);
        }
    }

    /** Copies into all of {@code destination} from {@code sourceOffset} of {@code source}; complete when it returns. */
    void toHost(SubmissionChain target, MemorySegment source, long sourceOffset, MemorySegment destination) {
        Allocation allocation = buffers.checkRange(source, sourceOffset, destination.byteSize(), "source");
        if (destination.byteSize() == 0) {
            return;
        }
        HostBuffers.HostBuffer host = hostBuffers.holding(destination);
        if (host != null) {
            long to = destination.address() - host.mapped().address();
            long hostBuffer = host.memory().buffer();
            long from = source.address();
            target.submit(commands -> Commands.copy(commands, from, sourceOffset, hostBuffer, to, destination.byteSize()),
                    List.of(), allocation == null ? List.of() : List.of(allocation)).await(context.device());
            target.retireCompleted();
        } else {
            transfers.toHost(target, source.address(), sourceOffset, destination, allocation);
        }
    }

    /** Copies {@code byteCount} bytes between buffers of the device, in {@code target}'s order. */
    void withinDevice(SubmissionChain target, MemorySegment source, long sourceOffset, MemorySegment destination,
                      long destinationOffset, long byteCount) {
        List<Tracked> used = new ArrayList<>(2);
        Allocation from = buffers.checkRange(source, sourceOffset, byteCount, "source");
        Allocation to = buffers.checkRange(destination, destinationOffset, byteCount, "destination");
        if (from != null) {
            used.add(from);
        }
        if (to != null && to != from) {
            used.add(to);
        }
        if (byteCount == 0) {
            return;
        }
        boolean overlapping = source.address() == destination.address()
                && sourceOffset < destinationOffset + byteCount && destinationOffset < sourceOffset + byteCount;
        if (!overlapping) {
            target.submit(commands -> Commands.copy(commands, source.address(), sourceOffset, destination.address(), destinationOffset, byteCount),
                    List.of(), used);
            return;
        }
        // vkCmdCopyBuffer forbids overlapping regions: go through a temporary buffer, freed when done.
        BufferMemory temporary = BufferMemory.create(context.device(), context.info(), byteCount, DeviceBuffers.USAGE, MemoryPurpose.DEVICE);
        target.submit(commands -> {
            Commands.copy(commands, source.address(), sourceOffset, temporary.buffer(), 0, byteCount);
            Commands.memory(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
            Commands.copy(commands, temporary.buffer(), 0, destination.address(), destinationOffset, byteCount);
        }, List.of(() -> temporary.destroy(context.device())), used);
    }
}
