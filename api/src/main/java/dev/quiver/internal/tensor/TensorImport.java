package dev.quiver.internal.tensor;

import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.DeviceBytes;
import dev.quiver.internal.abi.ArrayData;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

/**
 * Turns a dense tensor described by a foreign protocol (DLPack, the CUDA Array Interface) into an
 * imported array (what the {@link Target} makes of an ArrowDeviceArray): zero-copy when the layout is Arrow's (C-contiguous, not boolean), else a copy on the
 * same device when the caller allows it. The caller's {@code release} runs exactly once in every outcome:
 * when the array is closed (zero-copy), right after the copy, or before an error is thrown.
 */
public final class TensorImport {
    private TensorImport() {}

    /**
     * Where the imported tensor goes: the caller's devices, and how a written ArrowDeviceArray becomes the
     * caller's array. Implementations are used from the importing thread only.
     *
     * @param <A> the array type
     */
    public interface Target<A> {
        /**
         * @param deviceType an {@code ARROW_DEVICE_*} code
         * @param deviceId   the Arrow device id
         * @return the backend of that device, for copies
         * @throws java.util.NoSuchElementException if no chosen backend serves the device
         */
        BackendDevice backend(int deviceType, long deviceId);

        /**
         * @param deviceType an {@code ARROW_DEVICE_*} code
         * @return its name, for messages
         */
        String deviceName(int deviceType);

        /**
         * Moves an ArrowDeviceArray into a new array, which then owns it and calls its release exactly once.
         *
         * @param deviceArray the struct, in memory the callee may read until it returns
         * @param field       the field it holds
         * @param readOnly    whether its producer forbids writes
         * @return the array, owned by the caller
         */
        A adopt(MemorySegment deviceArray, Field field, boolean readOnly);
    }

    /**
     * The exceptions of the calling protocol, each made from a field path and a rule.
     *
     * @param invalid for input that breaks the protocol
     * @param refused for legal input that cannot be imported as asked
     */
    public record Errors(BiFunction<String, String, RuntimeException> invalid, BiFunction<String, String, RuntimeException> refused) {
        RuntimeException invalid(String path, String rule) {
            return invalid.apply(path, rule);
        }

        RuntimeException refused(String path, String rule) {
            return refused.apply(path, rule);
        }
    }

    /**
     * How the calling protocol names its fields in messages.
     *
     * @param data       the data pointer
     * @param shape      the shape
     * @param strides    the strides
     * @param byteOffset the byte offset (protocols without one never see it named)
     * @param dtype      the element type
     */
    public record Names(String data, String shape, String strides, String byteOffset, String dtype) {}

    /**
     * A dense tensor in foreign memory.
     *
     * @param deviceType the {@code ARROW_DEVICE_*} code
     * @param deviceId   the Arrow device id (-1 for the CPU)
     * @param element    the element type
     * @param view       shape and byte strides
     * @param data       the data pointer or handle, NULL allowed when there are no elements
     * @param byteOffset bytes from {@code data} to the first element, {@code >= 0}
     * @param readOnly   whether the producer forbids writes
     */
    public record Tensor(int deviceType, long deviceId, ElementType element, StridedView view, MemorySegment data,
                         long byteOffset, boolean readOnly) {}

    /**
     * A validity bitmap for the imported array, on its device, aligned with the first element.
     *
     * @param bits      the bitmap pointer or handle
     * @param nullCount the number of clear bits among the elements
     * @param free      frees the bitmap; runs exactly once
     */
    public record Validity(MemorySegment bits, long nullCount, Runnable free) {}

    /**
     * @param tensor    the tensor
     * @param name      the field name of the array
     * @param validity  a validity bitmap, or null when every element is valid
     * @param allowCopy whether a layout Arrow does not share may be copied
     * @param target    where to find backends (for copies), and what makes the array
     * @param names     field names for messages
     * @param errors    the protocol's exceptions
     * @param release   gives the foreign memory back; runs exactly once
     * @return the array, owned by the caller
     */
    public static <A> A importTensor(Tensor tensor, String name, Validity validity, boolean allowCopy, Target<A> target,
                                     Names names, Errors errors, Runnable release) {
        Runnable releaseSource = once(release);
        Runnable freeValidity = validity == null ? () -> { } : once(validity.free());
        Runnable freeAll = once(() -> {
            try {
                freeValidity.run();
            } finally {
                releaseSource.run();
            }
        });
        try {
            StridedView view = tensor.view();
            long count;
            try {
                count = view.elementCount();
            } catch (ArithmeticException e) {
                throw errors.invalid(names.shape(), "the element count overflows 64 bits");
            }
            if (count > 0 && tensor.data().equals(MemorySegment.NULL)) {
                throw errors.invalid(names.data(), "is NULL but the tensor has " + count + " elements");
            }
            if (tensor.byteOffset() < 0) {
                throw errors.invalid(names.byteOffset(), "is " + Long.toUnsignedString(tensor.byteOffset()) + ", beyond any buffer");
            }
            Field field = new Field(name, tensor.element().arrowType(), validity != null, List.of(),
                    dev.quiver.type.Metadata.of(TensorShapes.metadata(view.shape())), null);
            OptionalInt gap = view.firstNonContiguousDimension();
            String conversion = tensor.element().differsFromArrowLayout()
                    ? "one byte per boolean, but Arrow booleans are bit-packed (1 bit per value)"
                    : gap.isPresent() ? strideProblem(view, gap.getAsInt()) : null;
            if (conversion != null) {
                String path = tensor.element().differsFromArrowLayout() ? names.dtype() : names.strides() + "[" + gap.getAsInt() + "]";
                if (!allowCopy) {
                    throw errors.refused(path, conversion + "; it cannot be imported without a copy, which the caller did not allow");
                }
                return copied(tensor, field, count, validity, freeValidity, releaseSource, target, names, errors);
            }
            MemorySegment pointer = tensor.data();
            long offset = 0;
            int size = tensor.element().byteSize();
            if (count > 0 && tensor.byteOffset() != 0) {
                if (tensor.byteOffset() % size == 0) {
                    offset = tensor.byteOffset() / size;
                } else if (DeviceTypeCodes.pointersAreAddresses(tensor.deviceType())) {
                    pointer = MemorySegment.ofAddress(pointer.address() + tensor.byteOffset());
                } else {
                    throw errors.refused(names.byteOffset(), "is " + tensor.byteOffset() + ", not a multiple of the element size ("
                            + size + " bytes), and " + target.deviceName(tensor.deviceType()) + " buffers are opaque handles that allow no "
                            + "pointer arithmetic: the offset cannot be carried as an Arrow element offset");
                }
            }
            if (validity != null && offset != 0) {
                throw new IllegalArgumentException("a validity bitmap needs the first element at the buffer start");
            }
            return adopt(field, tensor, count, offset, pointer, validity, tensor.readOnly(), target, freeAll);
        } catch (RuntimeException | Error e) {
            try {
                freeAll.run();
            } catch (RuntimeException | Error cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private static String strideProblem(StridedView view, int dimension) {
        long stride = view.byteStride(dimension);
        return (stride < 0 ? "a negative stride (" : "a non-contiguous stride (") + stride + " bytes in dimension " + dimension
                + "): Arrow holds elements densely in C order";
    }

    private static <A> A copied(Tensor tensor, Field field, long count, Validity validity, Runnable freeValidity,
                                Runnable releaseSource, Target<A> target, Names names, Errors errors) {
        BackendDevice backend = target.backend(tensor.deviceType(), tensor.deviceId());
        StridedView view = tensor.view();
        MemorySegment copy;
        try (Arena scratch = Arena.ofConfined()) {
            long start;
            long end;
            try {
                start = Math.addExact(tensor.byteOffset(), view.spanStart());
                end = Math.addExact(tensor.byteOffset(), view.spanEnd());
            } catch (ArithmeticException e) {
                throw errors.invalid(names.strides(), "the elements span more than 2^63 bytes");
            }
            MemorySegment span = DeviceBytes.download(backend, tensor.deviceType(), tensor.data(), start, end - start, scratch);
            MemorySegment dense = scratch.allocate(Math.max(1, count * view.elementSize()), 8).asSlice(0, count * view.elementSize());
            view.gather(span, dense);
            MemorySegment arrowData = dense;
            if (tensor.element().differsFromArrowLayout()) {
                arrowData = scratch.allocate(Math.max(1, (count + 7) / 8), 8).asSlice(0, (count + 7) / 8);
                BitPacking.pack(dense, count, arrowData);
            }
            copy = DeviceBytes.upload(backend, arrowData);
        }
        releaseSource.run();
        MemorySegment owned = copy;
        Runnable free = once(() -> {
            try {
                freeValidity.run();
            } finally {
                backend.free(owned);
            }
        });
        try {
            return adopt(field, tensor, count, 0, copy, validity, false, target, free);
        } catch (RuntimeException | Error e) {
            free.run();
            throw e;
        }
    }

    private static <A> A adopt(Field field, Tensor tensor, long count, long offset, MemorySegment data, Validity validity,
                               boolean readOnly, Target<A> target, Runnable free) {
        ArrayData node = new ArrayData(count, validity == null ? 0 : validity.nullCount(), offset,
                List.of(validity == null ? MemorySegment.NULL : validity.bits(), data), List.of());
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(ArrowDeviceArrayLayout.LAYOUT);
            StructWriter.writeDeviceArray(out, node, tensor.deviceType(), tensor.deviceId(), MemorySegment.NULL, free);
            return target.adopt(out, field, readOnly);
        }
    }

    /**
     * @param action what to run
     * @return a runnable that runs {@code action} the first time only, from any thread
     */
    public static Runnable once(Runnable action) {
        AtomicBoolean done = new AtomicBoolean();
        return () -> {
            if (done.compareAndSet(false, true)) {
                action.run();
            }
        };
    }
}
