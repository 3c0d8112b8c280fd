package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.ReadOnlyArrayException;
import dev.quiver.SyncEvent;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.DLManagedTensorLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.abi.DLTensorLayout;
import dev.quiver.internal.DeviceBytes;
import dev.quiver.internal.abi.NativeDeleters;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.bridge.DeviceBackends;
import dev.quiver.bridge.StreamHandoff;
import dev.quiver.internal.tensor.BitPacking;
import dev.quiver.internal.tensor.ElementType;
import dev.quiver.internal.tensor.StridedView;
import dev.quiver.internal.tensor.TensorShapes;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Exports a DeviceArray as a managed tensor. Every check runs before anything is moved or allocated, so a
 * refused export leaves the array as it was; a successful one moves the array into the tensor.
 */
final class TensorExporter {
    private TensorExporter() {}

    static DLPackExport export(DeviceArray array, DLPackExportOptions options, boolean versioned) {
        MemorySegment arrow = Interchange.arrowArray(array);
        DeviceType type = array.deviceType();
        ElementType element = ElementType.of(array.field().type()).orElseThrow(() -> new InterchangeException("array.type",
                "format \"" + array.field().type().format() + "\" is not a fixed-width primitive; DLPack exports integers, "
                        + "unsigned integers, floats (16, 32, 64 bits) and booleans"));
        if (!DLDeviceCodes.isDefined(type.code())) {
            throw new InterchangeException("array.device_type", type + " (code " + type.code() + ") has no DLPack device type");
        }
        int deviceId = dlpackDeviceId(type, array.deviceId());
        if (!versioned) {
            try {
                ArrayAccess.checkWritable(array);
            } catch (ReadOnlyArrayException e) {
                throw new InterchangeException("array", "is read-only, and the legacy DLManagedTensor has no flags to say so; "
                        + "export it as DLManagedTensorVersioned, which carries READ_ONLY");
            }
        }
        long[] shape;
        try {
            shape = TensorShapes.of(array.field(), array.length(), options.requestedShape());
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new InterchangeException("shape", e.getMessage());
        }
        long length = array.length();
        long offset = arrow.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        MemorySegment buffers = Pointers.pointers(arrow.get(ADDRESS, ArrowArrayLayout.BUFFERS), 2);
        MemorySegment validityBuffer = buffers.getAtIndex(ADDRESS, 0);
        MemorySegment dataBuffer = buffers.getAtIndex(ADDRESS, 1);
        long nullCount = array.nullCount();
        boolean mayHaveNulls = nullCount > 0 || nullCount < 0 && !validityBuffer.equals(MemorySegment.NULL);
        if (mayHaveNulls && options.nullHandling() == DLPackExportOptions.Nulls.REFUSE) {
            throw new InterchangeException("array.null_count", "is " + nullCount + ": DLPack tensors have no validity, so nulls would "
                    + "silently become values; export with Nulls.SEPARATE_VALIDITY to receive the validity bitmap beside the tensor");
        }
        if (element.differsFromArrowLayout() && !options.copyAllowed()) {
            throw new InterchangeException("array.type", "Arrow booleans are bit-packed (1 bit per value, least significant bit "
                    + "first) while DLPack's kDLBool holds one byte per value (bits = 8, the only boolean layout consumers accept), "
                    + "so a boolean array cannot be exported without a copy; allow copies to export one with IS_COPIED");
        }
        Optional<MemorySegment> consumer = ArrayApiStream.consumerStream(type, options.requestedStream());
        boolean copy = element.differsFromArrowLayout();
        BackendDevice backend = consumer.isPresent() || copy ? DeviceBackends.of(type, array.deviceId(), ArrayAccess.devices(array)) : null;

        MemorySegment data = dataBuffer;
        long byteOffset = offset * element.byteSize();
        MemorySegment copied = MemorySegment.NULL;
        if (copy) {
            array.syncEvent().ifPresent(SyncEvent::waitOnHost);
            copied = unpackBooleans(backend, type.code(), dataBuffer, offset, length);
            data = copied;
            byteOffset = 0;
        }
        MemorySegment ownedCopy = copied;
        // the moved ArrowDeviceArray, the managed tensor, its shape and its strides in one zeroed C heap block,
        // which the deleter frees from whichever thread calls it (struct sizes are multiples of 8: all aligned)
        long movedSize = ArrowDeviceArrayLayout.LAYOUT.byteSize();
        long managedSize = versioned ? DLManagedTensorVersionedLayout.LAYOUT.byteSize() : DLManagedTensorLayout.LAYOUT.byteSize();
        long dimensionsSize = JAVA_LONG.byteSize() * shape.length;
        MemorySegment all = NativeHeap.calloc(movedSize + managedSize + 2 * dimensionsSize);
        long block = all.address();
        long id = 0;
        try {
            if (consumer.isPresent()) {
                MemorySegment producer = options.producerStreamHandle() == null ? backend.defaultStream() : options.producerStreamHandle();
                MemorySegment event = copy ? MemorySegment.NULL : array.syncEvent().map(SyncEvent::pointer).orElse(MemorySegment.NULL);
                StreamHandoff.makeWait(backend, producer, event, consumer.get());
            }
            MemorySegment moved = all.asSlice(0, movedSize);
            Interchange.exportDevice(array, moved, MemorySegment.NULL);
            id = NativeDeleters.register(() -> {
                try {
                    ReleaseCallbacks.releaseArrayStruct(moved);
                    if (!ownedCopy.equals(MemorySegment.NULL)) {
                        backend.free(ownedCopy);
                    }
                } finally {
                    NativeHeap.free(block);
                }
            });
            MemorySegment managed = all.asSlice(movedSize, managedSize);
            MemorySegment tensor;
            if (versioned) {
                managed.set(JAVA_INT, DLManagedTensorVersionedLayout.VERSION_MAJOR, DLManagedTensorVersionedLayout.MAJOR_VERSION);
                managed.set(JAVA_INT, DLManagedTensorVersionedLayout.VERSION_MINOR, DLManagedTensorVersionedLayout.MINOR_VERSION);
                managed.set(ADDRESS, DLManagedTensorVersionedLayout.MANAGER_CTX, MemorySegment.ofAddress(id));
                managed.set(ADDRESS, DLManagedTensorVersionedLayout.DELETER, NativeDeleters.versionedDeleter());
                managed.set(JAVA_LONG, DLManagedTensorVersionedLayout.FLAGS,
                        (array.isReadOnly() ? DLManagedTensorVersionedLayout.FLAG_READ_ONLY : 0)
                                | (copy ? DLManagedTensorVersionedLayout.FLAG_IS_COPIED : 0));
                tensor = managed.asSlice(DLManagedTensorVersionedLayout.DL_TENSOR, DLTensorLayout.LAYOUT);
            } else {
                managed.set(ADDRESS, DLManagedTensorLayout.MANAGER_CTX, MemorySegment.ofAddress(id));
                managed.set(ADDRESS, DLManagedTensorLayout.DELETER, NativeDeleters.legacyDeleter());
                tensor = managed.asSlice(DLManagedTensorLayout.DL_TENSOR, DLTensorLayout.LAYOUT);
            }
            boolean empty = length == 0;
            tensor.set(ADDRESS, DLTensorLayout.DATA, empty ? MemorySegment.NULL : data);
            tensor.set(JAVA_INT, DLTensorLayout.DEVICE_TYPE, type.code());
            tensor.set(JAVA_INT, DLTensorLayout.DEVICE_ID, deviceId);
            tensor.set(JAVA_INT, DLTensorLayout.NDIM, shape.length);
            tensor.set(JAVA_BYTE, DLTensorLayout.DTYPE_CODE, (byte) DLDataTypes.code(element));
            tensor.set(JAVA_BYTE, DLTensorLayout.DTYPE_BITS, (byte) (element.byteSize() * 8));
            tensor.set(JAVA_SHORT, DLTensorLayout.DTYPE_LANES, (short) 1);
            MemorySegment shapeSlots = all.asSlice(movedSize + managedSize, dimensionsSize);
            MemorySegment strideSlots = all.asSlice(movedSize + managedSize + dimensionsSize, dimensionsSize);
            MemorySegment.copy(shape, 0, shapeSlots, JAVA_LONG, 0, shape.length);
            MemorySegment.copy(StridedView.contiguousElementStrides(shape), 0, strideSlots, JAVA_LONG, 0, shape.length);
            tensor.set(ADDRESS, DLTensorLayout.SHAPE, shape.length == 0 ? MemorySegment.NULL : shapeSlots);
            tensor.set(ADDRESS, DLTensorLayout.STRIDES, shape.length == 0 ? MemorySegment.NULL : strideSlots);
            tensor.set(JAVA_LONG, DLTensorLayout.BYTE_OFFSET, empty ? 0 : byteOffset);
            Optional<ValidityBitmap> validity = options.nullHandling() == DLPackExportOptions.Nulls.SEPARATE_VALIDITY
                    && !validityBuffer.equals(MemorySegment.NULL)
                    ? Optional.of(new ValidityBitmap(validityBuffer, offset, length, nullCount)) : Optional.empty();
            return new DLPackExport(MemorySegment.ofAddress(managed.address()), versioned, copy, validity);
        } catch (RuntimeException | Error e) {
            try {
                if (id != 0) {
                    NativeDeleters.deleteNow(id);
                } else {
                    if (!ownedCopy.equals(MemorySegment.NULL)) {
                        backend.free(ownedCopy);
                    }
                    NativeHeap.free(block);
                }
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** DLPack's {@code int32} device id: 0 for host, pinned and managed memory, else the Arrow id if it fits. */
    private static int dlpackDeviceId(DeviceType type, long arrowId) {
        if (DLDeviceCodes.hasZeroDeviceId(type.code())) {
            return 0;
        }
        if (arrowId < 0 || arrowId > Integer.MAX_VALUE) {
            throw new InterchangeException("array.device_id", "is " + arrowId + ", outside DLPack's int32 device_id range 0.."
                    + Integer.MAX_VALUE);
        }
        return (int) arrowId;
    }

    /** Copies bit-packed booleans into one byte per value on the same device; the caller owns the result. */
    private static MemorySegment unpackBooleans(BackendDevice backend, int deviceType, MemorySegment bits, long offset, long length) {
        try (Arena scratch = Arena.ofConfined()) {
            long firstByte = offset / 8;
            long byteCount = (offset + length + 7) / 8 - firstByte;
            MemorySegment host = length == 0 ? MemorySegment.NULL
                    : DeviceBytes.download(backend, deviceType, bits, firstByte, byteCount, scratch);
            MemorySegment bytes = scratch.allocate(Math.max(length, 1)).asSlice(0, length);
            BitPacking.unpack(host, offset % 8, length, bytes);
            return DeviceBytes.upload(backend, bytes);
        }
    }
}
