package dev.quiver.check;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;

import java.util.List;

/** The two tree-shaped structs of the C Data Interface, described by where their tree members sit. */
enum StructKind {
    /** {@code struct ArrowArray}. */
    ARRAY(ArrowArrayLayout.LAYOUT.byteSize(), ArrowArrayLayout.N_CHILDREN, ArrowArrayLayout.CHILDREN,
            ArrowArrayLayout.DICTIONARY, ArrowArrayLayout.RELEASE, List.of(
                    new Member("buffers", ArrowArrayLayout.BUFFERS), new Member("children", ArrowArrayLayout.CHILDREN),
                    new Member("dictionary", ArrowArrayLayout.DICTIONARY), new Member("private_data", ArrowArrayLayout.PRIVATE_DATA))),
    /** {@code struct ArrowSchema}. */
    SCHEMA(ArrowSchemaLayout.LAYOUT.byteSize(), ArrowSchemaLayout.N_CHILDREN, ArrowSchemaLayout.CHILDREN,
            ArrowSchemaLayout.DICTIONARY, ArrowSchemaLayout.RELEASE, List.of(
                    new Member("format", ArrowSchemaLayout.FORMAT), new Member("name", ArrowSchemaLayout.NAME),
                    new Member("metadata", ArrowSchemaLayout.METADATA), new Member("children", ArrowSchemaLayout.CHILDREN),
                    new Member("dictionary", ArrowSchemaLayout.DICTIONARY), new Member("private_data", ArrowSchemaLayout.PRIVATE_DATA)));

    /**
     * A pointer member.
     *
     * @param name   its C name
     * @param offset its byte offset
     */
    record Member(String name, long offset) {}

    final long size;
    final long nChildren;
    final long children;
    final long dictionary;
    final long release;
    /** The pointer members that must not point inside the struct itself. */
    final List<Member> pointers;

    StructKind(long size, long nChildren, long children, long dictionary, long release, List<Member> pointers) {
        this.size = size;
        this.nChildren = nChildren;
        this.children = children;
        this.dictionary = dictionary;
        this.release = release;
        this.pointers = pointers;
    }
}
