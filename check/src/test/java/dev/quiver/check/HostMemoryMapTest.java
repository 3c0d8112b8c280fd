package dev.quiver.check;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The memory map the checker consults before it follows a producer's pointer, on this Linux process. */
class HostMemoryMapTest {
    private final HostMemoryMap map = HostMemoryMap.snapshot().orElseThrow(() -> new AssertionError("/proc/self/maps is readable on Linux"));

    @Test
    void memoryTheProcessAllocatedIsReadableToItsEnd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(4096);
            HostMemoryMap after = HostMemoryMap.snapshot().orElseThrow();
            assertEquals(4096, after.readableBytes(block.address(), 4096));
            assertEquals(16, after.readableBytes(block.address() + 4080, 16));
        }
    }

    @Test
    void smallIntegersAndPoisonAreNotReadable() {
        assertEquals(0, map.readableBytes(0x2a, 8), "an opaque handle value");
        assertEquals(0, map.readableBytes(0, 8), "NULL");
        assertEquals(0, map.readableBytes(0xA5A5A5A5A5A5A5A5L, 8), "the checker's poison byte pattern");
    }

    @Test
    void functionsAreExecutableAndDataIsNot() {
        MemorySegment strlen = Linker.nativeLinker().defaultLookup().find("strlen").orElseThrow();
        assertTrue(map.executable(strlen.address()), "strlen in the C library");
        assertTrue(map.readableBytes(strlen.address(), 1) == 1, "code is readable too");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(64);
            assertFalse(HostMemoryMap.snapshot().orElseThrow().executable(data.address()), "heap data");
        }
        assertFalse(map.executable(0x1234), "a small integer");
    }
}
