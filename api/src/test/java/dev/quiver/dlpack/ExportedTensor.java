package dev.quiver.dlpack;

import dev.quiver.abi.DLManagedTensorLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.abi.DLTensorLayout;
import dev.quiver.internal.abi.NativeDeleters;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Reads the fields of an exported tensor from Java, and plays the consumer that calls its deleter. */
final class ExportedTensor {
    private final DLPackExport export;
    private final MemorySegment managed;
    private final MemorySegment tensor;

    ExportedTensor(DLPackExport export) {
        this.export = export;
        long size = export.versioned() ? DLManagedTensorVersionedLayout.LAYOUT.byteSize() : DLManagedTensorLayout.LAYOUT.byteSize();
        this.managed = export.tensor().reinterpret(size);
        this.tensor = managed.asSlice(export.versioned() ? DLManagedTensorVersionedLayout.DL_TENSOR : DLManagedTensorLayout.DL_TENSOR,
                DLTensorLayout.LAYOUT.byteSize());
    }

    long flags() {
        return managed.get(JAVA_LONG, DLManagedTensorVersionedLayout.FLAGS);
    }

    long data() {
        return tensor.get(ADDRESS, DLTensorLayout.DATA).address();
    }

    long byteOffset() {
        return tensor.get(JAVA_LONG, DLTensorLayout.BYTE_OFFSET);
    }

    int deviceType() {
        return tensor.get(JAVA_INT, DLTensorLayout.DEVICE_TYPE);
    }

    int deviceId() {
        return tensor.get(JAVA_INT, DLTensorLayout.DEVICE_ID);
    }

    /** Calls the tensor's deleter, as a consumer does when it is done. */
    void delete() {
        long offset = export.versioned() ? DLManagedTensorVersionedLayout.DELETER : DLManagedTensorLayout.DELETER;
        NativeDeleters.call(managed.get(ADDRESS, offset), export.tensor());
    }
}
