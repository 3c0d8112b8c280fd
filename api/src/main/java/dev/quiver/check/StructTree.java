package dev.quiver.check;

import dev.quiver.internal.validate.Paths;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Lists the children and dictionaries below an ArrowArray or ArrowSchema, following only pointers the
 * memory map says are readable and never visiting a struct twice (so cycles end). Reports nothing: the
 * validators have named faulty pointers already. Stateless.
 */
final class StructTree {
    private static final long MAX_CHILDREN = 1 << 20;
    private static final int MAX_DEPTH = 64;

    private StructTree() {}

    /**
     * One struct of the tree.
     *
     * @param struct the struct, sized
     * @param path   its field path
     */
    record Node(MemorySegment struct, String path) {}

    /**
     * @param kind   array or schema
     * @param root   the root struct
     * @param path   the root's field path
     * @param memory which pointers may be read
     * @return every struct below the root, parents before their children
     */
    static List<Node> descendants(StructKind kind, MemorySegment root, String path, Collector memory) {
        List<Node> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        seen.add(root.address());
        walk(kind, root.reinterpret(kind.size), path, memory, out, seen, 0);
        return out;
    }

    private static void walk(StructKind kind, MemorySegment node, String path, Collector memory, List<Node> out, Set<Long> seen, int depth) {
        if (depth >= MAX_DEPTH) {
            return;
        }
        long n = node.get(JAVA_LONG, kind.nChildren);
        MemorySegment children = node.get(ADDRESS, kind.children);
        if (n > 0 && n <= MAX_CHILDREN && !children.equals(MemorySegment.NULL)
                && memory.readableBytes(children, n * ADDRESS.byteSize()) == n * ADDRESS.byteSize()) {
            children = children.reinterpret(n * ADDRESS.byteSize());
            for (long i = 0; i < n; i++) {
                visit(kind, children.getAtIndex(ADDRESS, i), Paths.index(path, "children", i), memory, out, seen, depth);
            }
        }
        visit(kind, node.get(ADDRESS, kind.dictionary), Paths.join(path, "dictionary"), memory, out, seen, depth);
    }

    private static void visit(StructKind kind, MemorySegment child, String path, Collector memory, List<Node> out, Set<Long> seen, int depth) {
        if (child.equals(MemorySegment.NULL) || memory.readableBytes(child, kind.size) < kind.size || !seen.add(child.address())) {
            return;
        }
        MemorySegment struct = child.reinterpret(kind.size);
        out.add(new Node(struct, path));
        walk(kind, struct, path, memory, out, seen, depth + 1);
    }
}
