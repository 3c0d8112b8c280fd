package dev.quiver.internal;

import java.lang.foreign.MemorySegment;
import java.util.List;

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
