package dev.quiver.host;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.Pointers;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * An {@link ArrayMemory} over a C {@code ArrowArray} struct whose buffers the host can address. Borrows the
 * struct: valid while its owner keeps it alive; reads only, so any thread may use it.
 *
 * @param struct the {@code ArrowArray}
 */
record ArrowArrayMemory(MemorySegment struct) implements ArrayMemory {
    ArrowArrayMemory {
        struct = Pointers.struct(struct, ArrowArrayLayout.LAYOUT);
    }

    @Override
    public long length() {
        return struct.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
    }

    @Override
    public long offset() {
        return struct.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
    }

    @Override
    public int bufferCount() {
        return Math.toIntExact(struct.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS));
    }

    @Override
    public MemorySegment buffer(int i, long bytes) {
        int n = bufferCount();
        Objects.checkIndex(i, n);
        MemorySegment pointer = Pointers.pointers(struct.get(ADDRESS, ArrowArrayLayout.BUFFERS), n).getAtIndex(ADDRESS, i);
        return pointer.equals(MemorySegment.NULL) ? pointer : Pointers.bytes(pointer, bytes);
    }

    @Override
    public int childCount() {
        return Math.toIntExact(struct.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN));
    }

    @Override
    public ArrayMemory child(int k) {
        int n = childCount();
        Objects.checkIndex(k, n);
        return new ArrowArrayMemory(Pointers.pointers(struct.get(ADDRESS, ArrowArrayLayout.CHILDREN), n).getAtIndex(ADDRESS, k));
    }

    @Override
    public ArrayMemory dictionary() {
        MemorySegment dictionary = struct.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        return dictionary.equals(MemorySegment.NULL) ? null : new ArrowArrayMemory(dictionary);
    }
}
