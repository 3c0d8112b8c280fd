package dev.quiver.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * DLPack's legacy {@code DLManagedTensor} (64 bytes on LP64): the {@code DLTensor}, then
 * {@code void* manager_ctx} and {@code void (*deleter)(DLManagedTensor* self)}. It has no version and no
 * flags, so it cannot say that a tensor is read-only or copied.
 */
public final class DLManagedTensorLayout {
    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            DLTensorLayout.LAYOUT.withName("dl_tensor"),
            ADDRESS.withName("manager_ctx"),
            ADDRESS.withName("deleter")).withName("DLManagedTensor");

    /** Offset of the embedded {@code DLTensor dl_tensor}. */
    public static final long DL_TENSOR = offset("dl_tensor");
    /** Offset of {@code void* manager_ctx}. */
    public static final long MANAGER_CTX = offset("manager_ctx");
    /** Offset of {@code void (*deleter)(DLManagedTensor*)}. */
    public static final long DELETER = offset("deleter");

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private DLManagedTensorLayout() {}
}
