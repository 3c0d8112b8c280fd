package dev.quiver.dlpack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What a C peer should produce: every field of a managed tensor. The data is a copy of {@code bytes}
 * ({@code null}: NULL data) with the first element at {@code byteOffset}.
 *
 * @param major       {@code version.major} (versioned struct only)
 * @param minor       {@code version.minor} (versioned struct only)
 * @param flags       {@code flags} (versioned struct only)
 * @param deviceType  {@code device.device_type}
 * @param deviceId    {@code device.device_id}
 * @param code        {@code dtype.code}
 * @param bits        {@code dtype.bits}
 * @param lanes       {@code dtype.lanes}
 * @param shape       {@code shape}
 * @param strides     {@code strides} in elements, null for NULL
 * @param byteOffset  {@code byte_offset}
 * @param bytes       the buffer the data pointer points to, null for NULL
 * @param withDeleter false for a NULL deleter
 */
record TensorSpec(int major, int minor, long flags, int deviceType, int deviceId, int code, int bits, int lanes,
                  long[] shape, long[] strides, long byteOffset, byte[] bytes, boolean withDeleter) {

    /** @return a 1.3, CPU, C-contiguous int32 vector of {@code values} */
    static TensorSpec int32(int... values) {
        ByteBuffer buffer = littleEndian(values.length * 4);
        for (int v : values) {
            buffer.putInt(v);
        }
        return new TensorSpec(1, 3, 0, 1, 0, 0, 32, 1, new long[] {values.length}, new long[] {1}, 0, buffer.array(), true);
    }

    /** @return a 1.3, CPU, C-contiguous float64 vector of {@code values} */
    static TensorSpec float64(double... values) {
        ByteBuffer buffer = littleEndian(values.length * 8);
        for (double v : values) {
            buffer.putDouble(v);
        }
        return new TensorSpec(1, 3, 0, 1, 0, 2, 64, 1, new long[] {values.length}, new long[] {1}, 0, buffer.array(), true);
    }

    static ByteBuffer littleEndian(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    TensorSpec version(int newMajor, int newMinor) {
        return new TensorSpec(newMajor, newMinor, flags, deviceType, deviceId, code, bits, lanes, shape, strides, byteOffset, bytes, withDeleter);
    }

    TensorSpec flags(long newFlags) {
        return new TensorSpec(major, minor, newFlags, deviceType, deviceId, code, bits, lanes, shape, strides, byteOffset, bytes, withDeleter);
    }

    TensorSpec device(int type, int id) {
        return new TensorSpec(major, minor, flags, type, id, code, bits, lanes, shape, strides, byteOffset, bytes, withDeleter);
    }

    TensorSpec dtype(int newCode, int newBits, int newLanes) {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, newCode, newBits, newLanes, shape, strides, byteOffset, bytes, withDeleter);
    }

    TensorSpec shape(long... extents) {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, code, bits, lanes, extents, strides, byteOffset, bytes, withDeleter);
    }

    TensorSpec strides(long... elementStrides) {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, code, bits, lanes, shape, elementStrides, byteOffset, bytes, withDeleter);
    }

    TensorSpec nullStrides() {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, code, bits, lanes, shape, null, byteOffset, bytes, withDeleter);
    }

    TensorSpec byteOffset(long offset) {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, code, bits, lanes, shape, strides, offset, bytes, withDeleter);
    }

    TensorSpec bytes(byte[] buffer) {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, code, bits, lanes, shape, strides, byteOffset, buffer, withDeleter);
    }

    TensorSpec withoutDeleter() {
        return new TensorSpec(major, minor, flags, deviceType, deviceId, code, bits, lanes, shape, strides, byteOffset, bytes, false);
    }
}
