package dev.quiver.share.internal.arrays;

import dev.quiver.type.Field;

/**
 * One node of a CPU array's {@code ArrowArray} tree as the exporter reads it: the struct's counts, and the
 * address and size in bytes of each buffer (address 0 for a NULL buffer).
 *
 * @param field         the node's field
 * @param length        {@code length}
 * @param nullCount     {@code null_count}
 * @param offset        {@code offset}
 * @param addresses     {@code buffers[i]}
 * @param sizes         the bytes each buffer holds for this node's slots
 * @param childCount    {@code n_children}
 * @param hasDictionary whether {@code dictionary} is set
 */
public record HostNode(Field field, long length, long nullCount, long offset, long[] addresses, long[] sizes,
                       int childCount, boolean hasDictionary) {
}
