package dev.quiver.internal.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * {@code struct ArrowAsyncDeviceStreamHandler} (48 bytes on LP64), which the consumer of an async device
 * stream allocates and the producer calls:
 * {@code int (*on_schema)(self, struct ArrowSchema*)},
 * {@code int (*on_next_task)(self, struct ArrowAsyncTask*, const char* metadata)},
 * {@code void (*on_error)(self, int code, const char* message, const char* metadata)},
 * {@code void (*release)(self)}, {@code struct ArrowAsyncProducer* producer} (set by the producer before
 * any callback but {@code release}) and {@code void* private_data}.
 *
 * <p>Layout as in the upstream header {@code abi.h}; see {@link ArrowAsyncProducerLayout} and
 * {@link ArrowAsyncTaskLayout} for where the specification's text differs from it.
 */
public final class ArrowAsyncDeviceStreamHandlerLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("on_schema"),
            ADDRESS.withName("on_next_task"),
            ADDRESS.withName("on_error"),
            ADDRESS.withName("release"),
            ADDRESS.withName("producer"),
            ADDRESS.withName("private_data")).withName("ArrowAsyncDeviceStreamHandler");

    /** Offset of {@code int (*on_schema)(struct ArrowAsyncDeviceStreamHandler*, struct ArrowSchema*)}. */
    public static final long ON_SCHEMA = offset("on_schema");
    /** Offset of {@code int (*on_next_task)(struct ArrowAsyncDeviceStreamHandler*, struct ArrowAsyncTask*, const char*)}. */
    public static final long ON_NEXT_TASK = offset("on_next_task");
    /** Offset of {@code void (*on_error)(struct ArrowAsyncDeviceStreamHandler*, int, const char*, const char*)}. */
    public static final long ON_ERROR = offset("on_error");
    /** Offset of {@code void (*release)(struct ArrowAsyncDeviceStreamHandler*)}. */
    public static final long RELEASE = offset("release");
    /** Offset of {@code struct ArrowAsyncProducer* producer}. */
    public static final long PRODUCER = offset("producer");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    private static long offset(String field) {
        return LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    private ArrowAsyncDeviceStreamHandlerLayout() {}
}
