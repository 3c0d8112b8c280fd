package dev.quiver.snippets;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The examples in the documentation of package {@code dev.quiver.abi}, compiled with the tests. */
final class AbiSnippets {
    private AbiSnippets() {}

    static void allocate() {
        // @start region="device-array"
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = ArrowDeviceArrayLayout.allocate(arena);
        }
        // @end
        // @start region="array"
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = ArrowArrayLayout.allocate(arena);
        }
        // @end
        // @start region="schema"
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = ArrowSchemaLayout.allocate(arena);
        }
        // @end
        // @start region="stream"
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = ArrowDeviceArrayStreamLayout.allocate(arena);
        }
        // @end
    }
}
