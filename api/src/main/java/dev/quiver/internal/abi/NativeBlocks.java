package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * A bump allocator over {@code calloc}'d blocks, for the structs, pointer arrays and strings of one
 * exported tree: a few C allocations per tree instead of one per node, and {@link #free()} from whichever
 * thread runs the last release. Allocation is confined to the writing thread; {@link #free()} runs once.
 */
final class NativeBlocks implements SegmentAllocator {
    private static final long BLOCK = 512;

    private final List<MemorySegment> blocks = new ArrayList<>(2);
    private MemorySegment current = MemorySegment.NULL;
    private long used;

    @Override
    public MemorySegment allocate(long byteSize, long byteAlignment) {
        if (byteAlignment > 16) {
            throw new IllegalArgumentException("alignment above 16 is not needed for structs: " + byteAlignment);
        }
        long start = (used + byteAlignment - 1) & -byteAlignment;
        if (current.equals(MemorySegment.NULL) || start + byteSize > current.byteSize()) {
            current = NativeHeap.calloc(Math.max(BLOCK, byteSize));
            blocks.add(current);
            start = 0;
        }
        used = start + byteSize;
        return current.asSlice(start, byteSize);
    }

    /** Frees every block. */
    void free() {
        for (MemorySegment block : blocks) {
            NativeHeap.free(block);
        }
        blocks.clear();
    }
}
