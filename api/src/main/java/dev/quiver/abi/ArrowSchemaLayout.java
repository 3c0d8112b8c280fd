package dev.quiver.abi;

import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code struct ArrowSchema} (72 bytes on LP64). */
public final class ArrowSchemaLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("format"),
            ADDRESS.withName("name"),
            ADDRESS.withName("metadata"),
            JAVA_LONG.withName("flags"),
            JAVA_LONG.withName("n_children"),
            ADDRESS.withName("children"),
            ADDRESS.withName("dictionary"),
            ADDRESS.withName("release"),
            ADDRESS.withName("private_data")).withName("ArrowSchema");

    /** Offset of {@code const char* format}. */
    public static final long FORMAT = offset("format");
    /** Offset of {@code const char* name}. */
    public static final long NAME = offset("name");
    /** Offset of {@code const char* metadata}. */
    public static final long METADATA = offset("metadata");
    /** Offset of {@code int64_t flags}. */
    public static final long FLAGS = offset("flags");
    /** Offset of {@code int64_t n_children}. */
    public static final long N_CHILDREN = offset("n_children");
    /** Offset of {@code struct ArrowSchema** children}. */
    public static final long CHILDREN = offset("children");
    /** Offset of {@code struct ArrowSchema* dictionary}. */
    public static final long DICTIONARY = offset("dictionary");
    /** Offset of {@code void (*release)(struct ArrowSchema*)}. */
    public static final long RELEASE = offset("release");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    /** {@code ARROW_FLAG_DICTIONARY_ORDERED}. */
    public static final long FLAG_DICTIONARY_ORDERED = 1;
    /** {@code ARROW_FLAG_NULLABLE}. */
    public static final long FLAG_NULLABLE = 2;
    /** {@code ARROW_FLAG_MAP_KEYS_SORTED}. */
    public static final long FLAG_MAP_KEYS_SORTED = 4;

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private ArrowSchemaLayout() {}

    /**
     * Allocates a zeroed {@code struct ArrowSchema} (72 bytes, released state: {@code release} is NULL) for a producer to fill or {@code Interchange.exportDevice} to write.
     *
     * {@snippet class=dev.quiver.snippets.AbiSnippets region=schema}
     *
     * @param allocator where the memory comes from (an {@code Arena} decides its lifetime)
     * @return the struct's memory, owned as {@code allocator} owns what it allocates
     */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return StructMemory.zeroed(allocator, LAYOUT);
    }
}
