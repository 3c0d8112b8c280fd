package dev.quiver.check;

import dev.quiver.internal.validate.Paths;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The rule that makes moving possible: "pointer members inside the structure (including
 * {@code private_data}) MUST not point inside the structure itself", since a consumer moves structs by
 * bitwise copy. Checked on the struct as the producer filled it, before anything moves it. Stateless.
 */
final class SelfPointers {
    private SelfPointers() {}

    /**
     * @param struct    the struct as the producer filled it, sized to its full extent (for an
     *                  ArrowDeviceArray, 128 bytes though {@code members} may be the embedded array's)
     * @param base      the byte offset of the members within {@code struct}
     * @param members   its pointer members
     * @param path      the path of the members' struct
     * @param collector where violations go
     */
    static void check(MemorySegment struct, long base, List<StructKind.Member> members, String path, Collector collector) {
        long start = struct.address();
        long end = start + struct.byteSize();
        for (StructKind.Member member : members) {
            long value = struct.get(ADDRESS, base + member.offset()).address();
            if (Long.compareUnsigned(value, start) >= 0 && Long.compareUnsigned(value, end) < 0) {
                collector.report(Rule.STRUCT_SELF_POINTER, Paths.join(path, member.name()), "points inside its own struct (offset "
                        + (value - start) + " of the " + struct.byteSize() + " bytes at 0x" + Long.toHexString(start)
                        + "): a moved copy would still point into the old one");
            }
        }
    }

    /** Checks every node of a tree with its own kind's members. */
    static void check(StructKind kind, List<StructTree.Node> nodes, Collector collector) {
        for (StructTree.Node node : nodes) {
            check(node.struct(), 0, kind.pointers, node.path(), collector);
        }
    }
}
