package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.BufferSizes;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

/**
 * Checks, for a structurally valid array in host-accessible memory, that every byte range each buffer's
 * implied size addresses may be read, before anything reads it: fixed layouts from offset and length, data
 * buffers up to their last offset, variadic buffers of views by the sizes buffer, and so down the tree and
 * into dictionaries. Buffers are visited so that what a size is read from (the offsets, the sizes buffer) is
 * checked before the size is read. Faults go to the sink, whose {@link Faults#readableBytes} decides; with a
 * sink that stops at the first fault, paths are built only to name a fault found (see {@link FirstFault}).
 * Stateless; one call at a time per sink.
 */
public final class HostBufferRanges {
    private HostBufferRanges() {}

    /**
     * Checks the ArrowArray at a raw address, reporting paths from the root.
     *
     * @param array  the address of a live, structurally valid ArrowArray of {@code field}, in host memory
     * @param field  its field
     * @param faults where faults go; its {@link Faults#readableBytes} says what may be read
     */
    public static void check(long array, Field field, Faults faults) {
        FirstFault.run(HostBufferRanges::node, array, field, "", faults);
    }

    /** Checks the buffers of {@code array}, then, unless one of them failed, its children and dictionary. */
    private static void node(long array, Field field, String path, Faults faults) {
        BufferLayout layout = BufferLayout.of(field.type());
        int nBuffers = (int) RawMemory.getLong(array + ArrowArrayLayout.N_BUFFERS);
        int fixed = layout.bufferCount();
        for (int i = 0; i < fixed; i++) {
            if (!buffer(array, field, i, path, faults)) {
                return;
            }
        }
        // the sizes buffer first: the sizes of the variadic buffers are read from it
        if (layout.variadic() && (!buffer(array, field, nBuffers - 1, path, faults) || !variadic(array, field, fixed, nBuffers, path, faults))) {
            return;
        }
        long nChildren = RawMemory.getLong(array + ArrowArrayLayout.N_CHILDREN);
        long children = RawMemory.getAddress(array + ArrowArrayLayout.CHILDREN);
        for (int k = 0; k < nChildren; k++) {
            node(RawMemory.getAddress(children + (long) k * Long.BYTES), field.children().get(k), Paths.index(path, "children", k), faults);
        }
        long dictionary = RawMemory.getAddress(array + ArrowArrayLayout.DICTIONARY);
        if (field.dictionary() != null && dictionary != 0) {
            node(dictionary, field.dictionary().values(), Paths.join(path, "dictionary"), faults);
        }
    }

    private static boolean variadic(long array, Field field, int fixed, int nBuffers, String path, Faults faults) {
        for (int i = fixed; i < nBuffers - 1; i++) {
            if (!buffer(array, field, i, path, faults)) {
                return false;
            }
        }
        return true;
    }

    /** @return true if buffer {@code i} is absent or its implied range is readable; otherwise reports */
    private static boolean buffer(long array, Field field, int i, String path, Faults faults) {
        long pointer = BufferSizes.buffer(array, i);
        if (pointer == 0) {
            return true;
        }
        long size = BufferSizes.impliedSize(array, field, i, true);
        if (size < 0) {
            FirstFault.report(faults, Fault.ARRAY_BUFFER_SIZE, Paths.index(path, "buffers", i),
                    "its size cannot be known: the offsets or sizes it is read from are negative or overflow");
            return false;
        }
        return size == 0 || FirstFault.readable(faults, pointer, size, Paths.index(path, "buffers", i));
    }
}
