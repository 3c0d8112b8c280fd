package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.abi.DLTensorLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.tensor.ElementType;
import dev.quiver.internal.tensor.StridedView;
import dev.quiver.internal.tensor.TensorImport;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Reads and checks a foreign {@code DLTensor}. Reads the struct, the shape and the strides, never the data.
 */
final class TensorReader {
    /** Ranks above this are rejected before reading shape or strides. */
    static final int MAX_NDIM = 64;

    private TensorReader() {}

    /**
     * @param tensor           the {@code DLTensor} (48 bytes)
     * @param nullStridesAllowed whether NULL strides mean C-contiguous (legacy struct, or version 1.0 and 1.1)
     * @param readOnly         whether the producer forbids writes
     * @param path             the tensor's field path, {@code dl_tensor}
     * @return the tensor, checked
     * @throws InterchangeException or {@link InterchangeException} naming the field
     */
    static TensorImport.Tensor read(MemorySegment tensor, boolean nullStridesAllowed, boolean readOnly, String path) {
        int deviceType = tensor.get(JAVA_INT, DLTensorLayout.DEVICE_TYPE);
        if (!DLDeviceCodes.isDefined(deviceType)) {
            throw new InterchangeException(path + ".device.device_type", "unknown DLPack device type " + deviceType
                    + " (DLPack 1.3 defines 1 to 4 and 7 to " + DLDeviceCodes.LAST_DEFINED + ")");
        }
        int deviceId = tensor.get(JAVA_INT, DLTensorLayout.DEVICE_ID);
        if (deviceId < 0 && deviceType != DeviceTypeCodes.CPU) {
            throw new InterchangeException(path + ".device.device_id", "is " + deviceId + ", not a device index");
        }
        int ndim = tensor.get(JAVA_INT, DLTensorLayout.NDIM);
        if (ndim < 0 || ndim > MAX_NDIM) {
            throw new InterchangeException(path + ".ndim", "is " + ndim + ", must be 0 to " + MAX_NDIM);
        }
        ElementType element = DLDataTypes.element(Byte.toUnsignedInt(tensor.get(JAVA_BYTE, DLTensorLayout.DTYPE_CODE)),
                Byte.toUnsignedInt(tensor.get(JAVA_BYTE, DLTensorLayout.DTYPE_BITS)),
                Short.toUnsignedInt(tensor.get(JAVA_SHORT, DLTensorLayout.DTYPE_LANES)), path + ".dtype");
        long[] shape = readArray(tensor.get(ADDRESS, DLTensorLayout.SHAPE), ndim, path + ".shape");
        for (int i = 0; i < ndim; i++) {
            if (shape[i] < 0) {
                throw new InterchangeException(path + ".shape[" + i + "]", "is negative (" + shape[i] + ")");
            }
        }
        MemorySegment stridesPointer = tensor.get(ADDRESS, DLTensorLayout.STRIDES);
        long[] byteStrides = null;
        if (ndim > 0 && stridesPointer.equals(MemorySegment.NULL)) {
            if (!nullStridesAllowed) {
                throw new InterchangeException(path + ".strides", "is NULL with ndim " + ndim + ": DLPack 1.2 and later require strides "
                        + "(NULL means C-contiguous only for the legacy DLManagedTensor and versions 1.0 and 1.1)");
            }
        } else if (ndim > 0) {
            long[] strides = readArray(stridesPointer, ndim, path + ".strides");
            byteStrides = new long[ndim];
            for (int i = 0; i < ndim; i++) {
                try {
                    byteStrides[i] = Math.multiplyExact(strides[i], (long) element.byteSize());
                } catch (ArithmeticException e) {
                    throw new InterchangeException(path + ".strides[" + i + "]", "is " + strides[i] + ", too large for 64-bit byte offsets");
                }
            }
        }
        return new TensorImport.Tensor(deviceType, deviceType == DeviceTypeCodes.CPU ? -1 : deviceId, element,
                StridedView.of(element.byteSize(), shape, byteStrides), tensor.get(ADDRESS, DLTensorLayout.DATA),
                tensor.get(JAVA_LONG, DLTensorLayout.BYTE_OFFSET), readOnly);
    }

    private static long[] readArray(MemorySegment pointer, int ndim, String path) {
        if (ndim == 0) {
            return new long[0];
        }
        if (pointer.equals(MemorySegment.NULL)) {
            throw new InterchangeException(path, "is NULL with ndim " + ndim);
        }
        return Pointers.bytes(pointer, ndim * JAVA_LONG.byteSize()).toArray(JAVA_LONG_UNALIGNED);
    }
}
