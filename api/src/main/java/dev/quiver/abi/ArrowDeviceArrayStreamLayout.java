package dev.quiver.abi;

import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ArrowDeviceArrayStream} (48 bytes on LP64): the {@code ArrowDeviceType device_type} every
 * array of the stream is on, four bytes of padding at 4..7, then the callbacks
 * {@code int get_schema(self, struct ArrowSchema*)}, {@code int get_next(self, struct ArrowDeviceArray*)},
 * {@code const char* get_last_error(self)}, {@code void release(self)} and {@code void* private_data}.
 */
public final class ArrowDeviceArrayStreamLayout {
    /** The struct layout: {@code device_type}, padding, then the members of {@code struct ArrowArrayStream}. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(members()).withName("ArrowDeviceArrayStream");

    /** Offset of {@code ArrowDeviceType device_type} (an {@code int32_t}). */
    public static final long DEVICE_TYPE = MemberOffsets.of(LAYOUT, "device_type");
    /** Where the members of {@code struct ArrowArrayStream} begin: after {@code device_type} and its padding. */
    private static final long STREAM = MemberOffsets.of(LAYOUT, "get_schema");
    /** Offset of {@code int (*get_schema)(struct ArrowDeviceArrayStream*, struct ArrowSchema*)}. */
    public static final long GET_SCHEMA = STREAM + ArrowArrayStreamLayout.GET_SCHEMA;
    /** Offset of {@code int (*get_next)(struct ArrowDeviceArrayStream*, struct ArrowDeviceArray*)}. */
    public static final long GET_NEXT = STREAM + ArrowArrayStreamLayout.GET_NEXT;
    /** Offset of {@code const char* (*get_last_error)(struct ArrowDeviceArrayStream*)}. */
    public static final long GET_LAST_ERROR = STREAM + ArrowArrayStreamLayout.GET_LAST_ERROR;
    /** Offset of {@code void (*release)(struct ArrowDeviceArrayStream*)}. */
    public static final long RELEASE = STREAM + ArrowArrayStreamLayout.RELEASE;
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = STREAM + ArrowArrayStreamLayout.PRIVATE_DATA;

    private ArrowDeviceArrayStreamLayout() {}

    private static MemoryLayout[] members() {
        List<MemoryLayout> members = new ArrayList<>(List.of(JAVA_INT.withName("device_type"), MemoryLayout.paddingLayout(4)));
        members.addAll(ArrowArrayStreamLayout.MEMBERS);
        return members.toArray(new MemoryLayout[0]);
    }

    /**
     * Allocates a zeroed {@code struct ArrowDeviceArrayStream} (48 bytes, released state: {@code release} is NULL) for a producer to fill or a stream export to write.
     *
     * {@snippet class=dev.quiver.snippets.AbiSnippets region=stream}
     *
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @return the struct's memory, owned as {@code allocator} owns what it allocates
     */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return StructMemory.zeroed(allocator, LAYOUT);
    }
}
