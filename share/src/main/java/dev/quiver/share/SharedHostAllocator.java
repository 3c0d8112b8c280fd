package dev.quiver.share;

import dev.quiver.memory.DeviceAllocator;
import dev.quiver.share.internal.memory.SharedRegion;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link DeviceAllocator} for a CPU {@link dev.quiver.memory.MemoryPool} that makes each block a memory file
 * another process can map: with it installed ({@code cpu.memoryPool().useAllocator(new SharedHostAllocator())}),
 * every array allocated on that device's pool shares with no copy. A block is page-aligned.
 *
 * <p>Mind that a pool reuses a block once it is freed: a session keeps each batch it sent alive until the
 * receiver releases it, so reuse never reaches memory a receiver still reads.
 *
 * <p><b>Threading.</b> Any thread, as {@code DeviceAllocator} requires.
 */
public final class SharedHostAllocator implements DeviceAllocator {
    private static final long PAGE = 4096;
    private final ConcurrentHashMap<Long, SharedRegion> blocks = new ConcurrentHashMap<>();

    /** Creates the allocator. */
    public SharedHostAllocator() {}

    /**
     * Creates a memory file of {@code byteSize} bytes and maps it.
     *
     * @throws IllegalArgumentException if {@code alignment} is more than a page
     * @throws ShareException           with {@link ShareException.Reason#SYSTEM} if the kernel refuses
     */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        if (alignment > PAGE) {
            throw new IllegalArgumentException("shared host blocks are aligned to " + PAGE + " bytes, not " + alignment);
        }
        try {
            SharedRegion region = SharedRegion.create("quiver-pool", byteSize);
            blocks.put(region.base(), region);
            return region.segment();
        } catch (dev.quiver.share.internal.posix.SystemCallException e) {
            throw new ShareException(ShareException.Reason.SYSTEM, "cannot allocate a shared block of " + byteSize + " bytes: " + e.getMessage(), e);
        }
    }

    /** Unmaps and closes the block's memory file. */
    @Override
    public void free(MemorySegment pointer) {
        SharedRegion region = blocks.remove(pointer.address());
        if (region == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address()) + " is not a block of this allocator");
        }
        region.close();
    }

    @Override
    public String name() {
        return "shared host memory (memfd)";
    }
}
