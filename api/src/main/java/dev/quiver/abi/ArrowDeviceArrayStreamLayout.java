package dev.quiver.abi;

import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ArrowDeviceArrayStream} (48 bytes on LP64): the {@code ArrowDeviceType device_type} every
 * array of the stream is on, four bytes of padding at 4..7, then the callbacks
 * {@code int get_schema(self, struct ArrowSchema*)}, {@code int get_next(self, struct ArrowDeviceArray*)},
 * {@code const char* get_last_error(self)}, {@code void release(self)} and {@code void* private_data}.
 */
public final class ArrowDeviceArrayStreamLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("device_type"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("get_schema"),
            ADDRESS.withName("get_next"),
            ADDRESS.withName("get_last_error"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data")).withName("ArrowDeviceArrayStream");

    /** Offset of {@code ArrowDeviceType device_type} (an {@code int32_t}). */
    public static final long DEVICE_TYPE = offset("device_type");
    /** Offset of {@code int (*get_schema)(struct ArrowDeviceArrayStream*, struct ArrowSchema*)}. */
    public static final long GET_SCHEMA = offset("get_schema");
    /** Offset of {@code int (*get_next)(struct ArrowDeviceArrayStream*, struct ArrowDeviceArray*)}. */
    public static final long GET_NEXT = offset("get_next");
    /** Offset of {@code const char* (*get_last_error)(struct ArrowDeviceArrayStream*)}. */
    public static final long GET_LAST_ERROR = offset("get_last_error");
    /** Offset of {@code void (*release)(struct ArrowDeviceArrayStream*)}. */
    public static final long RELEASE = offset("release");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private ArrowDeviceArrayStreamLayout() {}

    /**
     * Allocates a zeroed {@code struct ArrowDeviceArrayStream} (48 bytes, released state: {@code release} is NULL) for a producer to fill or a stream export to write.
     *
     * {@snippet class=dev.quiver.snippets.AbiSnippets region=stream}
     *
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @return the struct's memory, owned as {@code allocator} owns what it allocates
     */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        MemorySegment struct = allocator.allocate(LAYOUT);
        struct.fill((byte) 0);
        return struct;
    }
}
