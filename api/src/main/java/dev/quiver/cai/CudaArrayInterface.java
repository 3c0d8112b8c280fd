package dev.quiver.cai;

import dev.quiver.InterchangeException;
import dev.quiver.Interchange;
import dev.quiver.internal.backend.Capabilities;
import dev.quiver.spi.EventWaits;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.SyncEvent;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.DeviceBytes;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.bridge.DeviceArrayTarget;
import dev.quiver.bridge.DeviceBackends;
import dev.quiver.bridge.StreamHandoff;
import dev.quiver.internal.tensor.BitPacking;
import dev.quiver.internal.tensor.ElementType;
import dev.quiver.internal.tensor.StridedView;
import dev.quiver.internal.tensor.TensorImport;
import dev.quiver.internal.tensor.TensorShapes;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The CUDA Array Interface (version 3) as a {@code Map<String, Object>} with the specification's keys, the
 * form Python's {@code __cuda_array_interface__} dict takes on the JVM: {@code shape} (a
 * {@code List<Long>}), {@code typestr} (a byte-order character, a kind character and the element size in bytes, as NumPy writes it:
 * {@code |i1 <i2 <i4 <i8}, {@code |u1 <u2 <u4 <u8}, {@code <f2 <f4 <f8}, {@code |b1} for one-byte booleans,
 * multi-byte types in the platform's byte order), {@code data} ({@code List.of(pointer, readonly)}
 * with pointer 0 when there are no elements), {@code version} (3), {@code strides} (byte strides, null for
 * C-contiguous), {@code mask} (another descriptor, or null) and {@code stream} (null, 1, 2 or a
 * {@code cudaStream_t}; never 0).
 *
 * <p><b>Lifetime.</b> A descriptor is plain data: it keeps nothing alive. The memory it points to belongs to
 * the described array, which must stay open (and not be exported) while anyone uses the descriptor; the
 * named stream must outlive that use too. Importing a descriptor borrows the memory likewise: the caller
 * passes what keeps it alive as {@link ImportOptions#release}, which runs exactly once when the imported
 * array is closed.
 *
 * <p><b>Synchronisation.</b> The producer names a stream; the consumer synchronises on it. {@link #describe}
 * names the stream given in the options and makes it wait for the array's sync event, if any; without a
 * stream it waits for the sync event on the host, so {@code None} truthfully means "ready".
 * {@link #importFrom} synchronises on a named stream on the host, or makes the consumer's stream wait
 * ({@link ImportOptions#consumerStream}).
 *
 * <p><b>Pointers.</b> The interface passes a raw address, so only device types whose pointers are
 * addresses (CUDA and its pinned and managed memory; CPU, ROCm and oneAPI addresses too) can be described;
 * opaque handles (OpenCL, Vulkan, Metal) are refused. Arrow booleans are bit-packed and {@code |b1} is one
 * byte per value, so boolean arrays are refused by {@link #describe}; on import, {@code |b1} data and masks
 * are packed into bits when copies are allowed.
 *
 * <p>All methods are thread-safe; an array must not be closed by another thread while it is described.
 */
public final class CudaArrayInterface {
    /** The version this build writes. */
    public static final int VERSION = 3;
    /** Field metadata key holding the shape of an imported descriptor whose rank is not 1. */
    public static final String SHAPE_METADATA = TensorShapes.METADATA_KEY;

    private static final TensorImport.Names NAMES = new TensorImport.Names("data[0]", "shape", "strides", "data[0]", "typestr");
    private static final TensorImport.Errors ERRORS = new TensorImport.Errors(InterchangeException::new, InterchangeException::new);

    private CudaArrayInterface() {}

    /**
     * Describes an open array. The array stays owned by the caller and must outlive every use of the result.
     *
     * @param array   an open array of a fixed-width, non-boolean type, without nulls unless a mask is given
     * @param options stream, mask, shape
     * @return an unmodifiable descriptor
     * @throws InterchangeException if the array cannot be described as asked
     */
    public static Map<String, Object> describe(DeviceArray array, CaiDescribeOptions options) {
        MemorySegment arrow = Interchange.arrowArray(array);
        DeviceType type = array.deviceType();
        ElementType element = ElementType.of(array.field().type()).orElseThrow(() -> new InterchangeException("typestr",
                "format \"" + array.field().type().format() + "\" is not a fixed-width primitive"));
        if (element.differsFromArrowLayout()) {
            throw new InterchangeException("typestr", "Arrow booleans are bit-packed, while |b1 is one byte per value: a boolean "
                    + "array cannot be described without a copy; describe a one-byte integer array instead");
        }
        if (!type.pointersAreAddresses()) {
            throw new InterchangeException("data", "the interface passes a raw address, but " + type
                    + " buffers are opaque handles that allow no pointer arithmetic");
        }
        long[] shape;
        try {
            shape = TensorShapes.of(array.field(), array.length(), options.requestedShape());
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new InterchangeException("shape", e.getMessage());
        }
        long nullCount = array.nullCount();
        MemorySegment buffers = Pointers.pointers(arrow.get(ADDRESS, ArrowArrayLayout.BUFFERS), 2);
        boolean mayHaveNulls = nullCount > 0 || nullCount < 0 && !buffers.getAtIndex(ADDRESS, 0).equals(MemorySegment.NULL);
        Map<String, Object> mask = null;
        if (options.maskArray() != null) {
            mask = describeMask(array, options, shape);
        } else if (mayHaveNulls) {
            throw new InterchangeException("mask", "the array has nulls (null_count " + nullCount + ") and the interface has no "
                    + "validity bitmap; pass a mask (CudaArrayInterface.validityMask) to describe them");
        }
        Long stream = synchronise(array, options.streamHandle());
        long length = array.length();
        long pointer = length == 0 ? 0
                : buffers.getAtIndex(ADDRESS, 1).address() + arrow.get(JAVA_LONG, ArrowArrayLayout.OFFSET) * element.byteSize();
        Map<String, Object> descriptor = new LinkedHashMap<>();
        descriptor.put("shape", Arrays.stream(shape).boxed().toList());
        descriptor.put("typestr", TypeStrings.of(element));
        descriptor.put("data", List.of(pointer, array.isReadOnly()));
        descriptor.put("version", VERSION);
        descriptor.put("strides", null);
        descriptor.put("mask", mask);
        descriptor.put("stream", stream);
        return Collections.unmodifiableMap(descriptor);
    }

    private static Map<String, Object> describeMask(DeviceArray array, CaiDescribeOptions options, long[] shape) {
        DeviceArray mask = options.maskArray();
        boolean oneByteInteger = ElementType.of(mask.field().type())
                .filter(e -> e.byteSize() == 1 && e.kind() != ElementType.Kind.BOOL).isPresent();
        if (!oneByteInteger || !mask.deviceType().equals(array.deviceType()) || mask.deviceId() != array.deviceId()
                || mask.length() != array.length() || mask.nullCount() != 0) {
            throw new InterchangeException("mask", "must be a one-byte integer array without nulls, of the same length ("
                    + array.length() + ") on the same device (" + array.deviceType() + ":" + array.deviceId() + "); got " + mask);
        }
        return describe(mask, CaiDescribeOptions.defaults().shape(shape));
    }

    /** Makes the named stream (or the host, without one) wait for the array's sync event; returns {@code stream}. */
    private static Long synchronise(DeviceArray array, MemorySegment producer) {
        Optional<SyncEvent> event = array.syncEvent();
        if (producer == null) {
            event.ifPresent(SyncEvent::waitOnHost);
            return null;
        }
        if (array.deviceType().equals(DeviceType.CPU)) {
            throw new InterchangeException("stream", "a CPU array has no streams; describe it without one");
        }
        if (event.isPresent()) {
            EventWaits waits = Capabilities.waits(DeviceBackends.of(array.deviceType(), array.deviceId(), ArrayAccess.devices(array)));
            waits.streamWaitEvent(producer, waits.eventFromSyncEvent(event.get().pointer()));
        }
        return CaiStreams.valueOf(producer);
    }

    /**
     * Makes a one-byte-per-element validity mask of an array, on the same device: 1 where the array is
     * valid, 0 where it is null (all 1 without a validity bitmap). Waits on the host for the array's sync
     * event, then converts through the host.
     *
     * @param array an open array
     * @return a new {@code uint8} array, owned by the caller
     */
    public static DeviceArray validityMask(DeviceArray array) {
        MemorySegment arrow = Interchange.arrowArray(array);
        array.syncEvent().ifPresent(SyncEvent::waitOnHost);
        BackendDevice backend = DeviceBackends.of(array.deviceType(), array.deviceId(), ArrayAccess.devices(array));
        long length = array.length();
        long offset = arrow.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        MemorySegment validity = Pointers.pointers(arrow.get(ADDRESS, ArrowArrayLayout.BUFFERS), 1).get(ADDRESS, 0);
        MemorySegment copy;
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment bytes = scratch.allocate(Math.max(length, 1)).asSlice(0, length);
            if (validity.equals(MemorySegment.NULL)) {
                bytes.fill((byte) 1);
            } else if (length > 0) {
                long firstByte = offset / 8;
                MemorySegment bits = DeviceBytes.download(backend, array.deviceType().code(), validity, firstByte,
                        (offset + length + 7) / 8 - firstByte, scratch);
                BitPacking.unpack(bits, offset % 8, length, bytes);
            }
            copy = DeviceBytes.upload(backend, bytes);
        }
        MemorySegment owned = copy;
        ElementType uint8 = new ElementType(ElementType.Kind.UNSIGNED, 1);
        return TensorImport.importTensor(new TensorImport.Tensor(array.deviceType().code(), array.deviceId(), uint8,
                        StridedView.of(1, new long[] {length}, null), copy, 0, false), array.field().name() + ".mask", null, false,
                new DeviceArrayTarget(ArrayAccess.devices(array)), NAMES, ERRORS, () -> backend.free(owned));
    }

    /**
     * Imports the memory a descriptor points to as a DeviceArray, zero-copy where Arrow's layout allows.
     *
     * @param descriptor a version 2 or 3 descriptor
     * @param type       the device type of the memory (the interface does not say; CUDA memory is
     *                   {@link DeviceType#CUDA}, {@link DeviceType#CUDA_HOST} or {@link DeviceType#CUDA_MANAGED})
     * @param deviceId   the Arrow device id of the memory (-1 for the CPU)
     * @param options    copies, release action, stream handling, field name, devices
     * @return the array, owned by the caller; closing it runs the release action
     * @throws InterchangeException if the descriptor breaks the specification; the release action ran
     * @throws InterchangeException if it cannot be imported as asked; the release action ran
     */
    public static DeviceArray importFrom(Map<String, ?> descriptor, DeviceType type, long deviceId, ImportOptions options) {
        Runnable release = TensorImport.once(options.releaseAction().orElse(() -> { }));
        List<Runnable> undo = new ArrayList<>();
        try {
            Descriptor main = Descriptor.read(descriptor, "");
            if (!type.pointersAreAddresses()) {
                throw new InterchangeException("data[0]", "is an address, but " + type + " buffers are opaque handles");
            }
            Devices devices = options.devices();
            synchronise(type, deviceId, main.stream(), "stream", options, devices);
            TensorImport.Validity validity = null;
            if (main.mask() != null) {
                Descriptor mask = Descriptor.read(main.mask(), "mask.");
                synchronise(type, deviceId, mask.stream(), "mask.stream", options, devices);
                validity = packMask(mask, main, type, deviceId, options, devices);
                undo.add(validity.free());
            }
            TensorImport.Tensor tensor = new TensorImport.Tensor(type.code(), deviceId, main.element(), main.view(),
                    MemorySegment.ofAddress(main.pointer()), 0, main.readOnly() || options.readOnly());
            undo.clear();
            return TensorImport.importTensor(tensor, options.fieldName().orElse("cai"), validity, options.copyAllowed(), new DeviceArrayTarget(devices), NAMES, ERRORS, release);
        } catch (RuntimeException | Error e) {
            try {
                undo.forEach(Runnable::run);
                release.run();
            } catch (RuntimeException | Error cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private static void synchronise(DeviceType type, long deviceId, Long value, String path, ImportOptions options, Devices devices) {
        Optional<MemorySegment> named = CaiStreams.handleOf(type, value, path);
        if (named.isEmpty()) {
            return;
        }
        BackendDevice backend = DeviceBackends.of(type, deviceId, devices);
        if (options.consumerStreamHandle() == null) {
            backend.synchronizeStream(named.get());
        } else {
            StreamHandoff.makeWait(backend, named.get(), MemorySegment.NULL, options.consumerStreamHandle());
        }
    }

    /** Packs a byte mask into a validity bitmap on the device (a copy of the mask only). */
    private static TensorImport.Validity packMask(Descriptor mask, Descriptor main, DeviceType type, long deviceId,
                                                  ImportOptions options, Devices devices) {
        if (mask.element().byteSize() != 1 || mask.element().kind() == ElementType.Kind.FLOAT) {
            throw new InterchangeException("mask.typestr", "a mask of " + mask.element() + " is not supported; use |b1, |u1 or |i1");
        }
        if (!Arrays.equals(mask.view().shape(), main.view().shape())) {
            throw new InterchangeException("mask.shape", Arrays.toString(mask.view().shape()) + " differs from the data's "
                    + Arrays.toString(main.view().shape()));
        }
        if (!options.copyAllowed()) {
            throw new InterchangeException("mask", "Arrow validity is a bitmap, so a byte mask must be packed into one (a copy of "
                    + "the mask; the data stays zero-copy); allow copies to import a masked descriptor");
        }
        StridedView view = mask.view();
        long count = view.elementCount();
        if (count > 0 && mask.pointer() == 0) {
            throw new InterchangeException("mask.data[0]", "is 0 but the mask has " + count + " elements");
        }
        BackendDevice backend = DeviceBackends.of(type, deviceId, devices);
        MemorySegment bits;
        long zeros;
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment span = DeviceBytes.download(backend, type.code(), MemorySegment.ofAddress(mask.pointer()), view.spanStart(),
                    view.spanEnd() - view.spanStart(), scratch);
            MemorySegment dense = scratch.allocate(Math.max(count, 1)).asSlice(0, count);
            view.gather(span, dense);
            MemorySegment packed = scratch.allocate(Math.max((count + 7) / 8, 1)).asSlice(0, (count + 7) / 8);
            zeros = BitPacking.pack(dense, count, packed);
            bits = DeviceBytes.upload(backend, packed);
        }
        MemorySegment owned = bits;
        return new TensorImport.Validity(bits, zeros, () -> backend.free(owned));
    }
}
