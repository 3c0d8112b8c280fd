package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.ArrayData;
import dev.quiver.internal.abi.ChildViews;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Zero-copy views of a {@link DeviceArray}: slices, children and dictionaries, each a new array written straight
 * into its own struct block that holds a reference on the viewed array (see "Views and references" there).
 * Stateless; runs on the caller's thread; no device memory is read.
 */
final class ArrayViews {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    private ArrayViews() {}

    /** See {@link DeviceArray#child(int)}. */
    static DeviceArray child(DeviceArray array, int i) {
        MemorySegment struct = array.arrowArray();
        int count = array.childCount();
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("child " + i + " of " + array.state.description() + ", which has " + count);
        }
        return view(array, ChildViews.child(struct, array.field, i), array.field.children().get(i));
    }

    /** See {@link DeviceArray#child(String)}. */
    static DeviceArray child(DeviceArray array, String name) {
        array.checkOpen();
        List<Field> children = array.field.children();
        for (int i = 0; i < children.size(); i++) {
            if (children.get(i).name().equals(name)) {
                return child(array, i);
            }
        }
        throw new NoSuchElementException(array.state.description() + " has no child \"" + name + "\"; its children are "
                + children.stream().map(Field::name).toList());
    }

    /** See {@link DeviceArray#dictionary()}. */
    static Optional<DeviceArray> dictionary(DeviceArray array) {
        MemorySegment dictionary = array.arrowArray().get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        Field field = array.field;
        if (field.dictionary() == null || dictionary.equals(MemorySegment.NULL)) {
            return Optional.empty();
        }
        return Optional.of(view(array, ArrayData.viewOf(dictionary), field.dictionary().values()));
    }

    /** See {@link DeviceArray#slice(long, long)}. */
    static DeviceArray slice(DeviceArray array, long offset, long length) {
        long own = array.length();
        if (offset < 0 || length < 0 || offset > own || length > own - offset) {
            throw new IndexOutOfBoundsException("slice [" + offset + ", " + offset + " + " + length + ") of "
                    + array.state.description() + ", which has " + own + " elements");
        }
        Field field = array.field;
        ArrayData whole = ArrayData.viewOf(array.arrowArray());
        long nullCount = whole.nullCount() == 0 ? 0
                : field.dictionary() == null && field.type() instanceof ArrowType.Null ? length : -1;
        ArrayData slice = new ArrayData(length, nullCount, whole.offset() + offset, whole.buffers(), whole.children(), whole.dictionary());
        return view(array, slice, field);
    }

    /** Writes {@code data} (describing memory of {@code array}) as a new array that holds a reference on it. */
    private static DeviceArray view(DeviceArray array, ArrayData data, Field viewField) {
        ArrayState state = array.state;
        array.acquireReference();
        long block;
        try {
            block = NativeHeap.malloc(DEVICE_ARRAY_SIZE);
            try {
                StructWriter.writeDeviceArray(Pointers.bytes(MemorySegment.ofAddress(block), DEVICE_ARRAY_SIZE), data,
                        array.deviceType.code(), array.deviceId, array.syncEventPointer(), state);
            } catch (RuntimeException | Error e) {
                NativeHeap.free(block);
                throw e;
            }
        } catch (RuntimeException | Error e) {
            state.run();
            throw e;
        }
        DeviceArray view;
        try {
            view = new DeviceArray(block, false, viewField, array.devices, array.readOnly);
        } catch (RuntimeException | Error e) {
            ArrayImports.releaseQuietly(block, false, e);
            throw e;
        }
        view.contentsVerified = array.contentsVerified;
        view.decimalPrecisionChecked = array.decimalPrecisionChecked;
        return view;
    }
}
