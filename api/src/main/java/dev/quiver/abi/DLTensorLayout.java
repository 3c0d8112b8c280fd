package dev.quiver.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * DLPack's {@code DLTensor} (48 bytes on LP64), with its embedded {@code DLDevice} (8 bytes: {@code int32}
 * device type, {@code int32} device id) and {@code DLDataType} (4 bytes: {@code uint8} code, {@code uint8}
 * bits, {@code uint16} lanes). The layout is the same in DLPack 0.6 and 1.x; it has no padding.
 */
public final class DLTensorLayout {
    /** {@code DLDevice}. */
    public static final StructLayout DEVICE = MemoryLayout.structLayout(
            JAVA_INT.withName("device_type"),
            JAVA_INT.withName("device_id")).withName("DLDevice");

    /** {@code DLDataType}. */
    public static final StructLayout DTYPE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("code"),
            JAVA_BYTE.withName("bits"),
            JAVA_SHORT.withName("lanes")).withName("DLDataType");

    /** The struct layout. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("data"),
            DEVICE.withName("device"),
            JAVA_INT.withName("ndim"),
            DTYPE.withName("dtype"),
            ADDRESS.withName("shape"),
            ADDRESS.withName("strides"),
            JAVA_LONG.withName("byte_offset")).withName("DLTensor");

    /** Offset of {@code void* data}. */
    public static final long DATA = offset("data");
    /** Offset of {@code DLDevice device}. */
    public static final long DEVICE_OFFSET = offset("device");
    /** Offset of {@code device.device_type} ({@code int32}). */
    public static final long DEVICE_TYPE = DEVICE_OFFSET + DEVICE.byteOffset(groupElement("device_type"));
    /** Offset of {@code device.device_id} ({@code int32}). */
    public static final long DEVICE_ID = DEVICE_OFFSET + DEVICE.byteOffset(groupElement("device_id"));
    /** Offset of {@code int32_t ndim}. */
    public static final long NDIM = offset("ndim");
    /** Offset of {@code DLDataType dtype}. */
    public static final long DTYPE_OFFSET = offset("dtype");
    /** Offset of {@code dtype.code} ({@code uint8}). */
    public static final long DTYPE_CODE = DTYPE_OFFSET + DTYPE.byteOffset(groupElement("code"));
    /** Offset of {@code dtype.bits} ({@code uint8}). */
    public static final long DTYPE_BITS = DTYPE_OFFSET + DTYPE.byteOffset(groupElement("bits"));
    /** Offset of {@code dtype.lanes} ({@code uint16}). */
    public static final long DTYPE_LANES = DTYPE_OFFSET + DTYPE.byteOffset(groupElement("lanes"));
    /** Offset of {@code int64_t* shape}. */
    public static final long SHAPE = offset("shape");
    /** Offset of {@code int64_t* strides} (in elements, not bytes). */
    public static final long STRIDES = offset("strides");
    /** Offset of {@code uint64_t byte_offset}. */
    public static final long BYTE_OFFSET = offset("byte_offset");

    private static long offset(String field) {
        return MemberOffsets.of(LAYOUT, field);
    }

    private DLTensorLayout() {}
}
