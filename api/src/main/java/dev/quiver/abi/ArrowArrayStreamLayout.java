package dev.quiver.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * {@code struct ArrowArrayStream} of the plain Arrow C stream interface (40 bytes on LP64): the callbacks
 * {@code int get_schema(self, struct ArrowSchema*)}, {@code int get_next(self, struct ArrowArray*)},
 * {@code const char* get_last_error(self)}, {@code void release(self)} and {@code void* private_data}. Its
 * arrays are in CPU memory.
 */
public final class ArrowArrayStreamLayout {
    /**
     * The members: four callbacks and {@code private_data}, which {@code struct ArrowDeviceArrayStream} has too,
     * after its {@code device_type}.
     */
    static final List<MemoryLayout> MEMBERS = List.of(
            ADDRESS.withName("get_schema"),
            ADDRESS.withName("get_next"),
            ADDRESS.withName("get_last_error"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data"));

    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(MEMBERS.toArray(new MemoryLayout[0]))
            .withName("ArrowArrayStream");

    /** Offset of {@code int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema*)}. */
    public static final long GET_SCHEMA = offset("get_schema");
    /** Offset of {@code int (*get_next)(struct ArrowArrayStream*, struct ArrowArray*)}. */
    public static final long GET_NEXT = offset("get_next");
    /** Offset of {@code const char* (*get_last_error)(struct ArrowArrayStream*)}. */
    public static final long GET_LAST_ERROR = offset("get_last_error");
    /** Offset of {@code void (*release)(struct ArrowArrayStream*)}. */
    public static final long RELEASE = offset("release");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private ArrowArrayStreamLayout() {}

    /**
     * Allocates a zeroed {@code struct ArrowArrayStream} (40 bytes, released state: {@code release} is NULL)
     * for a producer to fill or a plain stream export to write.
     *
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @return the struct's memory, owned as {@code allocator} owns what it allocates
     */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return StructMemory.zeroed(allocator, LAYOUT);
    }
}
