package dev.quiver.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.Optional;

/**
 * The byte offsets of a struct layout's named members, found by adding up the sizes of the members before
 * each (a struct layout lists its padding as members). This is the offset {@link StructLayout#byteOffset}
 * gives for a group element, without building a layout path: the layouts' constants are computed when
 * their class first loads, on the way to a process's first array, where path resolution cost milliseconds.
 * Stateless.
 */
final class MemberOffsets {
    private MemberOffsets() {}

    /**
     * @param layout the struct
     * @param member the member's name
     * @return the member's offset from the start of the struct
     * @throws IllegalArgumentException if the struct has no member of that name
     */
    static long of(StructLayout layout, String member) {
        Optional<String> name = Optional.of(member);
        long offset = 0;
        for (MemoryLayout each : layout.memberLayouts()) {
            if (each.name().equals(name)) {
                return offset;
            }
            offset += each.byteSize();
        }
        throw new IllegalArgumentException(layout + " has no member " + member);
    }
}
