package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.BufferSizes;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Checks, for a structurally valid array in host-accessible memory, that every byte range each buffer's
 * implied size addresses may be read, before anything reads it: fixed layouts from offset and length, data
 * buffers up to their last offset, variadic buffers of views by the sizes buffer, and so down the tree and
 * into dictionaries. Buffers are visited so that what a size is read from (the offsets, the sizes buffer) is
 * checked before the size is read. Faults go to the sink, whose {@link Faults#readableBytes} decides.
 * Stateless; one call at a time per sink.
 */
public final class HostBufferRanges {
    private static final long STRUCT_SIZE = ArrowArrayLayout.LAYOUT.byteSize();

    private HostBufferRanges() {}

    /**
     * @param array  a live, structurally valid ArrowArray (80 bytes) of {@code field}, in host memory
     * @param field  its field
     * @param path   the path of {@code array}, prefixed to every reported path ({@code ""} for none)
     * @param faults where faults go; its {@link Faults#readableBytes} says what may be read
     */
    public static void check(MemorySegment array, Field field, String path, Faults faults) {
        MemorySegment s = Pointers.struct(array, ArrowArrayLayout.LAYOUT);
        BufferLayout layout = BufferLayout.of(field.type());
        int nBuffers = (int) s.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        int fixed = layout.bufferCount();
        for (int i = 0; i < fixed; i++) {
            if (!buffer(s, field, i, path, faults)) {
                return;
            }
        }
        // the sizes buffer first: the sizes of the variadic buffers are read from it
        if (layout.variadic() && (!buffer(s, field, nBuffers - 1, path, faults) || !variadic(s, field, fixed, nBuffers, path, faults))) {
            return;
        }
        long nChildren = s.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        MemorySegment children = Pointers.pointers(s.get(ADDRESS, ArrowArrayLayout.CHILDREN), nChildren);
        for (int k = 0; k < nChildren; k++) {
            check(Pointers.bytes(children.getAtIndex(ADDRESS, k), STRUCT_SIZE), field.children().get(k), Paths.index(path, "children", k), faults);
        }
        MemorySegment dictionary = s.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (field.dictionary() != null && !dictionary.equals(MemorySegment.NULL)) {
            check(Pointers.bytes(dictionary, STRUCT_SIZE), field.dictionary().values(), Paths.join(path, "dictionary"), faults);
        }
    }

    private static boolean variadic(MemorySegment s, Field field, int fixed, int nBuffers, String path, Faults faults) {
        for (int i = fixed; i < nBuffers - 1; i++) {
            if (!buffer(s, field, i, path, faults)) {
                return false;
            }
        }
        return true;
    }

    /** @return true if buffer {@code i} is absent or its implied range is readable; otherwise reports */
    private static boolean buffer(MemorySegment s, Field field, int i, String path, Faults faults) {
        MemorySegment pointer = Pointers.pointers(s.get(ADDRESS, ArrowArrayLayout.BUFFERS), i + 1L).getAtIndex(ADDRESS, i);
        if (pointer.equals(MemorySegment.NULL)) {
            return true;
        }
        long size = BufferSizes.impliedSize(s, field, i, true);
        String at = Paths.index(path, "buffers", i);
        if (size < 0) {
            faults.report(Fault.POINTER_UNREADABLE, at, "its size cannot be known: the offsets or sizes it is read from are negative or overflow");
            return false;
        }
        return size == 0 || faults.readable(pointer, size, at);
    }
}
