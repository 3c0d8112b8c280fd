package dev.quiver.device.rocm;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code hipPointerAttribute_t}, as {@code hipPointerGetAttributes} fills it: the same 32 bytes in ROCm 5 and
 * 6, whose first member ROCm 5 calls {@code memoryType} and ROCm 6 {@code type} (with renumbered values, see
 * {@link HipConstants.Rocm6}).
 */
final class HipPointerAttributes {
    private HipPointerAttributes() {}

    /** The layout, members named as in ROCm 5's {@code hip_runtime_api.h}. */
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("memoryType"),
            JAVA_INT.withName("device"),
            ADDRESS.withName("devicePointer"),
            ADDRESS.withName("hostPointer"),
            JAVA_INT.withName("isManaged"),
            JAVA_INT.withName("allocationFlags"));

    static final long MEMORY_TYPE = LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("memoryType"));
    static final long DEVICE = LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("device"));
    static final long IS_MANAGED = LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("isManaged"));
}
