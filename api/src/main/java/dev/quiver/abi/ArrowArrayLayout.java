package dev.quiver.abi;

import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code struct ArrowArray} (80 bytes on LP64). */
public final class ArrowArrayLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("length"),
            JAVA_LONG.withName("null_count"),
            JAVA_LONG.withName("offset"),
            JAVA_LONG.withName("n_buffers"),
            JAVA_LONG.withName("n_children"),
            ADDRESS.withName("buffers"),
            ADDRESS.withName("children"),
            ADDRESS.withName("dictionary"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data")).withName("ArrowArray");

    /** Offset of {@code int64_t length}. */
    public static final long LENGTH = offset("length");
    /** Offset of {@code int64_t null_count}. */
    public static final long NULL_COUNT = offset("null_count");
    /** Offset of {@code int64_t offset}. */
    public static final long OFFSET = offset("offset");
    /** Offset of {@code int64_t n_buffers}. */
    public static final long N_BUFFERS = offset("n_buffers");
    /** Offset of {@code int64_t n_children}. */
    public static final long N_CHILDREN = offset("n_children");
    /** Offset of {@code const void** buffers}. */
    public static final long BUFFERS = offset("buffers");
    /** Offset of {@code struct ArrowArray** children}. */
    public static final long CHILDREN = offset("children");
    /** Offset of {@code struct ArrowArray* dictionary}. */
    public static final long DICTIONARY = offset("dictionary");
    /** Offset of {@code void (*release)(struct ArrowArray*)}. */
    public static final long RELEASE = offset("release");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private ArrowArrayLayout() {}

    /**
     * Allocates a zeroed {@code struct ArrowArray} (80 bytes, released state: {@code release} is NULL) for a producer to fill.
     *
     * {@snippet class=dev.quiver.snippets.AbiSnippets region=array}
     *
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @return the struct's memory, owned as {@code allocator} owns what it allocates
     */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return StructMemory.zeroed(allocator, LAYOUT);
    }
}
