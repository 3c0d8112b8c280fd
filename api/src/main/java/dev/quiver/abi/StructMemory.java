package dev.quiver.abi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;

/**
 * Memory for one of the ABI structs, zeroed: the released state of the Arrow structs ({@code release} NULL),
 * which a producer fills or an export writes. Stateless.
 */
final class StructMemory {
    private StructMemory() {}

    /**
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @param layout    the struct
     * @return the struct's memory, every byte zero, owned as {@code allocator} owns what it allocates
     */
    static MemorySegment zeroed(SegmentAllocator allocator, StructLayout layout) {
        MemorySegment struct = allocator.allocate(layout);
        struct.fill((byte) 0);
        return struct;
    }
}
