package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.internal.abi.NativeDeleters;
import dev.quiver.internal.tensor.TensorShapes;

import java.lang.foreign.MemorySegment;

/**
 * DLPack interchange: a {@link DeviceArray} of a fixed-width type as a {@code DLManagedTensorVersioned}
 * (DLPack 1.x, written as version 1.3) or a legacy {@code DLManagedTensor}, and back, zero-copy.
 *
 * <p><b>Export</b> moves the array into the tensor, as {@link Interchange#exportDevice} does: afterwards the
 * DeviceArray is closed and the consumer owns the tensor, whose {@code deleter} (callable once, from any
 * thread) releases the array. Integers, unsigned integers, floats (including float16) and booleans are
 * exported; other types, and arrays on device types DLPack has no code for, are refused with
 * {@link InterchangeException}. The tensor has one dimension of the array's length unless a shape is asked
 * for (or was recorded at import, see {@link #SHAPE_METADATA}); strides are always set for {@code ndim > 0};
 * a tensor without elements has NULL {@code data}. The first element is at {@code data + byte_offset}, where
 * {@code data} is the Arrow buffer pointer exactly as the backend gave it (never offset, since OpenCL,
 * Vulkan and Metal buffers are opaque handles) and {@code byte_offset} is the Arrow offset times the element
 * size. {@code device_id} is 0 for CPU, pinned and managed memory, else the Arrow device id, refused if it
 * does not fit DLPack's {@code int32}.
 * <ul>
 *   <li><b>Booleans.</b> Arrow packs booleans into bits; DLPack's {@code kDLBool} holds one byte per value
 *       (sub-byte booleans are neither accepted by consumers nor given a bit order by DLPack). A boolean array
 *       therefore cannot be exported zero-copy: it is refused unless the caller allows a copy, which is made
 *       on the array's device and flagged {@code IS_COPIED}.</li>
 *   <li><b>Nulls.</b> DLPack has no validity. An array with nulls (or a validity bitmap and an unknown null
 *       count) is refused by default; with {@link DLPackExportOptions.Nulls#SEPARATE_VALIDITY} the values
 *       are exported as they lie in memory and the bitmap is handed over beside the tensor
 *       ({@link DLPackExport#validity()}), alive until the deleter runs.</li>
 *   <li><b>Read-only arrays</b> export with {@code READ_ONLY}; the legacy struct has no flags, so it refuses
 *       them.</li>
 *   <li><b>Flags.</b> {@code IS_COPIED} is set exactly when the export copied the data.</li>
 *   <li><b>Streams.</b> The array-API {@code stream} argument ({@link DLPackExportOptions#stream}) is honoured
 *       before the tensor is returned, as {@link ArrayApiStream} describes.</li>
 * </ul>
 *
 * <p><b>Import</b> takes ownership of the managed tensor: its deleter is called exactly once, whatever
 * happens: when the returned DeviceArray is closed (from any thread), right after a copy, or before an
 * exception is thrown. A NULL deleter is tolerated. The tensor is checked without reading its data: a
 * {@code version.major} other than 1 is refused after calling the deleter, reading nothing else; device type
 * and dtype codes DLPack does not define are {@link InterchangeException}s; NULL strides mean C-contiguous
 * only for the legacy struct and versions 1.0 and 1.1. The array is zero-copy, one-dimensional, of the
 * tensor's element count in C order (other ranks keep their shape in the field metadata), and read-only
 * when the tensor is flagged {@code READ_ONLY}. {@code byte_offset} becomes the Arrow offset when it is a
 * multiple of the element size; otherwise it is added to {@code data} where pointers are addresses (CPU,
 * CUDA, ROCm, oneAPI, pinned and managed memory) and refused for opaque handles. Layouts Arrow cannot share
 * (negative or non-contiguous strides, one byte per boolean) are refused unless the caller allows a copy,
 * made on the tensor's own device.
 *
 * {@snippet class=dev.quiver.snippets.DLPackSnippets region=exchange}
 *
 * <p>All methods are thread-safe; an array must not be used by another thread while it is being exported.
 */
public final class DLPack {
    /**
     * Field metadata key holding the tensor shape of an imported tensor whose rank is not 1 (extents
     * separated by commas; empty for rank 0). Export uses it when no shape is requested.
     */
    public static final String SHAPE_METADATA = TensorShapes.METADATA_KEY;

    private DLPack() {}

    /**
     * Exports an array as a {@code DLManagedTensorVersioned} (version 1.3), moving it into the tensor.
     *
     * @param array   an open array; closed afterwards
     * @param options stream, copies, nulls, shape
     * @return the tensor, owned by the consumer
     * @throws InterchangeException   if the array cannot be exported as asked; the array is untouched
     * @throws IllegalArgumentException if the stream value is not allowed for the array's device type
     */
    public static DLPackExport exportVersioned(DeviceArray array, DLPackExportOptions options) {
        return TensorExporter.export(array, options, true);
    }

    /**
     * Exports an array as a legacy {@code DLManagedTensor}, moving it into the tensor. The legacy struct has no
     * version and no flags: read-only arrays are refused, and a copy cannot be signalled.
     *
     * @param array   an open, writable array; closed afterwards
     * @param options stream, copies, nulls, shape
     * @return the tensor, owned by the consumer
     * @throws InterchangeException   if the array cannot be exported as asked; the array is untouched
     * @throws IllegalArgumentException if the stream value is not allowed for the array's device type
     */
    public static DLPackExport exportLegacy(DeviceArray array, DLPackExportOptions options) {
        return TensorExporter.export(array, options, false);
    }

    /**
     * Imports a {@code DLManagedTensorVersioned}, taking ownership of it.
     *
     * @param managedTensor a {@code DLManagedTensorVersioned*}
     * @param options       copies, field name, devices
     * @return the array, owned by the caller; closing it calls the deleter
     * @throws InterchangeException if the tensor breaks DLPack; the deleter was called
     * @throws InterchangeException if it cannot be imported as asked; the deleter was called
     */
    public static DeviceArray importVersioned(MemorySegment managedTensor, ImportOptions options) {
        return TensorImporter.importVersioned(managedTensor, options);
    }

    /**
     * Imports a legacy {@code DLManagedTensor}, taking ownership of it. NULL strides mean C-contiguous.
     *
     * @param managedTensor a {@code DLManagedTensor*}
     * @param options       copies, field name, devices
     * @return the array, owned by the caller; closing it calls the deleter
     * @throws InterchangeException if the tensor breaks DLPack; the deleter was called
     * @throws InterchangeException if it cannot be imported as asked; the deleter was called
     */
    public static DeviceArray importLegacy(MemorySegment managedTensor, ImportOptions options) {
        return TensorImporter.importLegacy(managedTensor, options);
    }

    /** {@return tensors exported by this process whose deleter has not been called yet} */
    public static long liveExports() {
        return NativeDeleters.live();
    }
}
