package dev.quiver.abi;

import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct ArrowDeviceArray} (128 bytes on LP64): the ArrowArray, then {@code device_id}, the
 * {@code ArrowDeviceType device_type}, four bytes of padding at 92..95, {@code void* sync_event} and
 * {@code int64_t reserved[3]}, which producers zero.
 */
public final class ArrowDeviceArrayLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ArrowArrayLayout.LAYOUT.withName("array"),
            JAVA_LONG.withName("device_id"),
            JAVA_INT.withName("device_type"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("sync_event"),
            MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("reserved")).withName("ArrowDeviceArray");

    /** Offset of the embedded {@code struct ArrowArray array}. */
    public static final long ARRAY = offset("array");
    /** Offset of {@code int64_t device_id}. */
    public static final long DEVICE_ID = offset("device_id");
    /** Offset of {@code ArrowDeviceType device_type} (an {@code int32_t}). */
    public static final long DEVICE_TYPE = offset("device_type");
    /** Offset of {@code void* sync_event}. */
    public static final long SYNC_EVENT = offset("sync_event");
    /** Offset of {@code int64_t reserved[3]}. */
    public static final long RESERVED = offset("reserved");
    /** Size of {@code reserved} in bytes. */
    public static final long RESERVED_BYTES = 3 * JAVA_LONG.byteSize();

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private ArrowDeviceArrayLayout() {}

    /**
     * Allocates a zeroed {@code struct ArrowDeviceArray} (128 bytes, released state: {@code release} is NULL) for a producer to fill (for example {@code Interchange.importDevice} after C wrote it) or a consumer to receive {@code Interchange.exportDevice}.
     *
     * {@snippet class=dev.quiver.snippets.AbiSnippets region=device-array}
     *
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @return the struct's memory, owned as {@code allocator} owns what it allocates
     */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return StructMemory.zeroed(allocator, LAYOUT);
    }
}
