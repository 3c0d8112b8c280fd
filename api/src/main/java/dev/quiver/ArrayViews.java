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

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Zero-copy views of an array's structs: what a slice, a child or a dictionary of a {@link DeviceArray} describes,
 * and the new struct block written for one that holds a reference on the viewed array's {@link ArrayState} (see
 * "Views and references" in {@code DeviceArray}, which wraps the block). Works on the viewed array's borrowed
 * {@code struct ArrowArray} and its field, never on the array itself. Stateless; runs on the caller's thread; no
 * device memory is read.
 */
final class ArrayViews {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    private ArrayViews() {}

    /**
     * @param struct      the viewed array's {@code struct ArrowArray}, open
     * @param description the viewed array, for messages
     * @return child {@code i} as {@link DeviceArray#child(int)} describes it
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    static ArrayData child(MemorySegment struct, Field field, int i, String description) {
        long count = struct.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("child " + i + " of " + description + ", which has " + count);
        }
        return ChildViews.child(struct, field, i);
    }

    /** @return the dictionary of a dictionary-encoded array, or null for other arrays */
    static ArrayData dictionary(MemorySegment struct, Field field) {
        MemorySegment dictionary = struct.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (field.dictionary() == null || dictionary.equals(MemorySegment.NULL)) {
            return null;
        }
        return ArrayData.viewOf(dictionary);
    }

    /**
     * @return elements {@code [offset, offset + length)} as {@link DeviceArray#slice(long, long)} describes them
     * @throws IndexOutOfBoundsException if the range is not inside the array
     */
    static ArrayData slice(MemorySegment struct, Field field, long offset, long length, String description) {
        ArrayData whole = ArrayData.viewOf(struct);
        long own = whole.length();
        if (offset < 0 || length < 0 || offset > own || length > own - offset) {
            throw new IndexOutOfBoundsException("slice [" + offset + ", " + offset + " + " + length + ") of "
                    + description + ", which has " + own + " elements");
        }
        long nullCount = whole.nullCount() == 0 ? 0
                : field.dictionary() == null && field.type() instanceof ArrowType.Null ? length : -1;
        return new ArrayData(length, nullCount, whole.offset() + offset, whole.buffers(), whole.children(), whole.dictionary());
    }

    /**
     * Writes {@code data} into a new block whose release lets go of one reference on {@code state}, which the
     * caller took; if writing fails, that reference is given back here.
     *
     * @return the block, holding a live ArrowDeviceArray owned by the caller
     */
    static long write(ArrayData data, DeviceType type, long deviceId, MemorySegment syncEvent, ArrayState state) {
        try {
            long block = NativeHeap.malloc(DEVICE_ARRAY_SIZE);
            try {
                StructWriter.writeDeviceArray(Pointers.bytes(MemorySegment.ofAddress(block), DEVICE_ARRAY_SIZE), data,
                        type.code(), deviceId, syncEvent, state);
            } catch (RuntimeException | Error e) {
                NativeHeap.free(block);
                throw e;
            }
            return block;
        } catch (RuntimeException | Error e) {
            state.run();
            throw e;
        }
    }
}
