package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Staged copies larger than one piece ({@link HostTransfers#CHUNK}) move in pieces with several in flight,
 * both ways, at an odd offset and an odd length, and leave no staging buffer in use. The buffer is treated as
 * one of other code (no allocation known), which is what makes lavapipe's mapped memory go through staging.
 */
class ChunkedStagingTest {
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void largeStagedCopiesArriveWholeInBothDirections() {
        long size = 3 * HostTransfers.CHUNK + 12_345;
        MemorySegment buffer = device.allocate(size + 7, 64);
        SubmissionChain stream = new SubmissionChain(device.context());
        HostTransfers transfers = new HostTransfers(device.context());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(size);
            for (long i = 0; i < size; i += 4093) {
                source.set(JAVA_BYTE, i, (byte) (i / 4093));
            }
            source.set(JAVA_BYTE, size - 1, (byte) 99);
            transfers.toDevice(stream, source, buffer.address(), 7, null);
            MemorySegment back = arena.allocate(size);
            transfers.toHost(stream, buffer.address(), 7, back, null);
            assertEquals(-1, source.mismatch(back), "every piece landed in its place");
        } finally {
            stream.destroy();
            device.free(buffer);
        }
    }
}
