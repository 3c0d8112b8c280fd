package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.bridge.DescriptorOptions;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.abi.DLManagedTensorLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.internal.abi.NativeDeleters;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.bridge.DeviceArrayTarget;
import dev.quiver.internal.tensor.TensorImport;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Imports managed tensors: checks them, then hands them to {@link TensorImport} with their deleter. */
final class TensorImporter {
    private static final TensorImport.Names NAMES = new TensorImport.Names("dl_tensor.data", "dl_tensor.shape",
            "dl_tensor.strides", "dl_tensor.byte_offset", "dl_tensor.dtype");
    private static final TensorImport.Errors ERRORS = new TensorImport.Errors(InterchangeException::new, InterchangeException::new);

    /** The name of an imported tensor's field unless the options name one. */
    static final String FIELD_NAME = "dlpack";

    private TensorImporter() {}

    static DeviceArray importVersioned(MemorySegment pointer, ImportOptions options) {
        DescriptorOptions.refuse(options, "a DLPack tensor carries its own deleter and is ready when handed over");
        MemorySegment managed = Pointers.struct(nonNull(pointer, "DLManagedTensorVersioned"), DLManagedTensorVersionedLayout.LAYOUT);
        Runnable deleter = deleterOf(managed, DLManagedTensorVersionedLayout.DELETER);
        TensorImport.Tensor tensor;
        try {
            int major = managed.get(JAVA_INT, DLManagedTensorVersionedLayout.VERSION_MAJOR);
            if (major != DLManagedTensorVersionedLayout.MAJOR_VERSION) {
                throw new InterchangeException("version.major", "is " + Integer.toUnsignedString(major)
                        + ", but this consumer speaks DLPack major version 1 only (the deleter was called; nothing else was read)");
            }
            int minor = managed.get(JAVA_INT, DLManagedTensorVersionedLayout.VERSION_MINOR);
            long flags = managed.get(JAVA_LONG, DLManagedTensorVersionedLayout.FLAGS);
            boolean readOnly = (flags & DLManagedTensorVersionedLayout.FLAG_READ_ONLY) != 0 || options.readOnly();
            tensor = TensorReader.read(managed.asSlice(DLManagedTensorVersionedLayout.DL_TENSOR), Integer.compareUnsigned(minor, 2) < 0,
                    readOnly, "dl_tensor");
        } catch (RuntimeException | Error e) {
            runAfterFailure(deleter, e);
            throw e;
        }
        return TensorImport.importTensor(tensor, options.fieldName().orElse(FIELD_NAME), null, options.copyAllowed(), new DeviceArrayTarget(options.devices()), NAMES, ERRORS, deleter);
    }

    static DeviceArray importLegacy(MemorySegment pointer, ImportOptions options) {
        DescriptorOptions.refuse(options, "a DLPack tensor carries its own deleter and is ready when handed over");
        MemorySegment managed = Pointers.struct(nonNull(pointer, "DLManagedTensor"), DLManagedTensorLayout.LAYOUT);
        Runnable deleter = deleterOf(managed, DLManagedTensorLayout.DELETER);
        TensorImport.Tensor tensor;
        try {
            tensor = TensorReader.read(managed.asSlice(DLManagedTensorLayout.DL_TENSOR), true, options.readOnly(), "dl_tensor");
        } catch (RuntimeException | Error e) {
            runAfterFailure(deleter, e);
            throw e;
        }
        return TensorImport.importTensor(tensor, options.fieldName().orElse(FIELD_NAME), null, options.copyAllowed(), new DeviceArrayTarget(options.devices()), NAMES, ERRORS, deleter);
    }


    private static MemorySegment nonNull(MemorySegment pointer, String struct) {
        if (pointer.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(struct + " pointer is NULL");
        }
        return pointer;
    }

    /** @return a runnable that calls the tensor's deleter on its first run only; NULL deleters are tolerated */
    private static Runnable deleterOf(MemorySegment managed, long deleterOffset) {
        MemorySegment deleter = managed.get(ADDRESS, deleterOffset);
        MemorySegment self = MemorySegment.ofAddress(managed.address());
        return TensorImport.once(() -> NativeDeleters.call(deleter, self));
    }

    private static void runAfterFailure(Runnable deleter, Throwable primary) {
        try {
            deleter.run();
        } catch (RuntimeException | Error e) {
            primary.addSuppressed(e);
        }
    }
}
