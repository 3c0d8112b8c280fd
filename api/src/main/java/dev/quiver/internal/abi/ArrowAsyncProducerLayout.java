package dev.quiver.internal.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ArrowAsyncProducer} (40 bytes on LP64) of the async device stream: the
 * {@code ArrowDeviceType device_type}, four bytes of padding at 4..7,
 * {@code void (*request)(struct ArrowAsyncProducer*, int64_t n)},
 * {@code void (*cancel)(struct ArrowAsyncProducer*)}, {@code const char* additional_metadata} and
 * {@code void* private_data}.
 *
 * <p><b>Header, not prose.</b> The struct listing in the specification's text shows a
 * {@code void (*release)(struct ArrowAsyncProducer*)} member between {@code cancel} and
 * {@code additional_metadata}; the upstream header {@code abi.h} has no such member, and the producer is
 * instead cleaned up by its owner after the handler's {@code release}. Quiver follows the header: 40
 * bytes, {@code additional_metadata} at 24, {@code private_data} at 32.
 */
public final class ArrowAsyncProducerLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("device_type"),
            MemoryLayout.paddingLayout(4),
            ADDRESS.withName("request"),
            ADDRESS.withName("cancel"),
            ADDRESS.withName("additional_metadata"),
            ADDRESS.withName("private_data")).withName("ArrowAsyncProducer");

    /** Offset of {@code ArrowDeviceType device_type} (an {@code int32_t}). */
    public static final long DEVICE_TYPE = offset("device_type");
    /** Offset of {@code void (*request)(struct ArrowAsyncProducer*, int64_t)}. */
    public static final long REQUEST = offset("request");
    /** Offset of {@code void (*cancel)(struct ArrowAsyncProducer*)}. */
    public static final long CANCEL = offset("cancel");
    /** Offset of {@code const char* additional_metadata}. */
    public static final long ADDITIONAL_METADATA = offset("additional_metadata");
    /** Offset of {@code void* private_data}. */
    public static final long PRIVATE_DATA = offset("private_data");

    private static long offset(String field) {
        return LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    private ArrowAsyncProducerLayout() {}
}
