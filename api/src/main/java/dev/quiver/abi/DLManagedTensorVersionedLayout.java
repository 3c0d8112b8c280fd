package dev.quiver.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * DLPack 1.x's {@code DLManagedTensorVersioned} (80 bytes on LP64): {@code DLPackVersion version}
 * ({@code uint32} major, {@code uint32} minor), {@code void* manager_ctx},
 * {@code void (*deleter)(DLManagedTensorVersioned* self)}, {@code uint64_t flags}, then the
 * {@code DLTensor}. A consumer reads {@code version.major} first: for any major other than 1 it may only call
 * the deleter.
 */
public final class DLManagedTensorVersionedLayout {
    /** {@code DLPackVersion}. */
    public static final StructLayout VERSION = MemoryLayout.structLayout(
            JAVA_INT.withName("major"),
            JAVA_INT.withName("minor")).withName("DLPackVersion");

    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            VERSION.withName("version"),
            ADDRESS.withName("manager_ctx"),
            ADDRESS.withName("deleter"),
            JAVA_LONG.withName("flags"),
            DLTensorLayout.LAYOUT.withName("dl_tensor")).withName("DLManagedTensorVersioned");

    /** Offset of {@code version.major} ({@code uint32}). */
    public static final long VERSION_MAJOR = offset("version") + VERSION.byteOffset(groupElement("major"));
    /** Offset of {@code version.minor} ({@code uint32}). */
    public static final long VERSION_MINOR = offset("version") + VERSION.byteOffset(groupElement("minor"));
    /** Offset of {@code void* manager_ctx}. */
    public static final long MANAGER_CTX = offset("manager_ctx");
    /** Offset of {@code void (*deleter)(DLManagedTensorVersioned*)}. */
    public static final long DELETER = offset("deleter");
    /** Offset of {@code uint64_t flags}. */
    public static final long FLAGS = offset("flags");
    /** Offset of the embedded {@code DLTensor dl_tensor}. */
    public static final long DL_TENSOR = offset("dl_tensor");

    /** The DLPack major version this build speaks. */
    public static final int MAJOR_VERSION = 1;
    /** The DLPack minor version this build writes. */
    public static final int MINOR_VERSION = 3;

    /** {@code DLPACK_FLAG_BITMASK_READ_ONLY}: the consumer must not write to the data. */
    public static final long FLAG_READ_ONLY = 1L;
    /** {@code DLPACK_FLAG_BITMASK_IS_COPIED}: the producer copied the data for this export. */
    public static final long FLAG_IS_COPIED = 1L << 1;
    /** {@code DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED}: sub-byte elements are padded to a byte each. */
    public static final long FLAG_IS_SUBBYTE_TYPE_PADDED = 1L << 2;

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private DLManagedTensorVersionedLayout() {}
}
