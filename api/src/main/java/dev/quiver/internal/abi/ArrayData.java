package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowArrayLayout;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A Java-side description of one ArrowArray node to export: the values of its integer fields, its buffer
 * pointers (host addresses or device handles, {@link MemorySegment#NULL} for absent buffers) and its
 * children. Describes memory; owns none.
 *
 * @param length    {@code length}
 * @param nullCount {@code null_count}
 * @param offset    {@code offset}
 * @param buffers   {@code buffers[]}
 * @param children   {@code children[]}
 * @param dictionary {@code dictionary}, or null
 */
public record ArrayData(long length, long nullCount, long offset, List<MemorySegment> buffers, List<ArrayData> children,
                        ArrayData dictionary) {
    /** Copies the lists. */
    public ArrayData {
        buffers = List.copyOf(buffers);
        children = List.copyOf(children);
    }

    /**
     * Describes an existing, validated ArrowArray tree: same lengths, offsets and buffer pointers, so that
     * writing it exports a zero-copy view.
     *
     * @param array a live ArrowArray (80 bytes)
     * @return its description
     */
    public static ArrayData viewOf(MemorySegment array) {
        MemorySegment s = array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        long nBuffers = s.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        MemorySegment buffers = s.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(nBuffers * ADDRESS.byteSize());
        List<MemorySegment> pointers = new ArrayList<>((int) nBuffers);
        for (long i = 0; i < nBuffers; i++) {
            pointers.add(buffers.getAtIndex(ADDRESS, i));
        }
        long nChildren = s.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        MemorySegment children = s.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(nChildren * ADDRESS.byteSize());
        List<ArrayData> nested = new ArrayList<>((int) nChildren);
        for (long i = 0; i < nChildren; i++) {
            nested.add(viewOf(children.getAtIndex(ADDRESS, i)));
        }
        MemorySegment dictionary = s.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        return new ArrayData(s.get(JAVA_LONG, ArrowArrayLayout.LENGTH), s.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT),
                s.get(JAVA_LONG, ArrowArrayLayout.OFFSET), pointers, nested,
                dictionary.equals(MemorySegment.NULL) ? null : viewOf(dictionary));
    }

    /**
     * @param array a live, validated ArrowArray (80 bytes)
     * @param i     a buffer index below its {@code n_buffers}
     * @return {@code buffers[i]}
     */
    public static MemorySegment bufferPointer(MemorySegment array, int i) {
        MemorySegment s = array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        long nBuffers = s.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        return s.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(nBuffers * ADDRESS.byteSize()).getAtIndex(ADDRESS, i);
    }

    /**
     * @param array a live, validated ArrowArray (80 bytes)
     * @param i     a child index below its {@code n_children}
     * @return {@code children[i]}, an ArrowArray
     */
    public static MemorySegment childPointer(MemorySegment array, int i) {
        MemorySegment s = array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        long nChildren = s.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        return s.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(nChildren * ADDRESS.byteSize()).getAtIndex(ADDRESS, i);
    }

    /**
     * @param length    the new {@code length}
     * @param nullCount the new {@code null_count}
     * @param offset    the new {@code offset}
     * @return this node with other top-level counts, sharing buffers, children and dictionary
     */
    public ArrayData withRange(long length, long nullCount, long offset) {
        return new ArrayData(length, nullCount, offset, buffers, children, dictionary);
    }

    /**
     * An array without dictionary.
     *
     * @param length    {@code length}
     * @param nullCount {@code null_count}
     * @param offset    {@code offset}
     * @param buffers   {@code buffers[]}
     * @param children  {@code children[]}
     */
    public ArrayData(long length, long nullCount, long offset, List<MemorySegment> buffers, List<ArrayData> children) {
        this(length, nullCount, offset, buffers, children, null);
    }
}
