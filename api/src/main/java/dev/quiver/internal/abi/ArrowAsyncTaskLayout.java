package dev.quiver.internal.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * {@code struct ArrowAsyncTask} (16 bytes on LP64) of the async device stream:
 * {@code int (*extract_data)(struct ArrowAsyncTask* self, struct ArrowDeviceArray* out)} and
 * {@code void* private_data}.
 *
 * <p>The specification's prose calls this struct {@code ArrowArrayTask} in places (for example in the
 * signature of {@code extract_data}); the upstream header {@code abi.h} names it {@code ArrowAsyncTask},
 * and so does Quiver. The layout is the same either way.
 */
public final class ArrowAsyncTaskLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("extract_data"),
            ADDRESS.withName("private_data")).withName("ArrowAsyncTask");

    /** Offset of {@code int (*extract_data)(struct ArrowAsyncTask*, struct ArrowDeviceArray*)}. */
    public static final long EXTRACT_DATA = offset("extract_data");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    private static long offset(String field) {
        return LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    private ArrowAsyncTaskLayout() {}
}
