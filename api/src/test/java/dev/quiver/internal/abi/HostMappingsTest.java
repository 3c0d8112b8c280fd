package dev.quiver.internal.abi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The memory map consulted before a producer's pointer is followed (untrusted import, full validation, the checker), on this Linux process. */
class HostMappingsTest {
    private final HostMappings map = HostMappings.snapshot().orElseThrow(() -> new AssertionError("/proc/self/maps is readable on Linux"));

    @Test
    void memoryTheProcessAllocatedIsReadableToItsEnd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(4096);
            HostMappings after = HostMappings.snapshot().orElseThrow();
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
            assertFalse(HostMappings.snapshot().orElseThrow().executable(data.address()), "heap data");
        }
        assertFalse(map.executable(0x1234), "a small integer");
    }

    @Test
    void adjacentReadableMappingsMergeAndGapsAndSpecialPagesDoNot() {
        String maps = """
                1000-2000 r--p 00000000 00:00 0 /lib/a.so
                2000-3000 r-xp 00001000 00:00 0 /lib/a.so
                3000-4000 ---p 00000000 00:00 0
                4000-5000 rw-p 00000000 00:00 0 [heap]
                5000-6000 r--p 00000000 00:00 0 [vvar]
                6000-7000 r--p 00000000 00:00 0
                """;
        HostMappings parsed = HostMappings.parse(maps.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(0x2000, parsed.readableBytes(0x1000, 0x10000), "two readable mappings without a gap read as one");
        assertEquals(0x10, parsed.readableBytes(0x2ff0, 0x20), "up to the guard page only");
        assertEquals(0, parsed.readableBytes(0x3000, 1), "PROT_NONE");
        assertEquals(0x1000, parsed.readableBytes(0x4000, 0x2000), "not into [vvar]");
        assertEquals(0, parsed.readableBytes(0x5000, 1), "[vvar] may fault");
        assertEquals(0x800, parsed.readableBytes(0x6800, 0x800));
        assertEquals(0, parsed.readableBytes(0x7000, 1), "past the last mapping");
        assertTrue(parsed.executable(0x2800));
        assertFalse(parsed.executable(0x1800));
    }

    @Test
    void theCachedMapSeesMemoryMappedAfterItWasTaken() {
        assertTrue(ReadableMemory.available());
        ReadableMemory.readableBytes(MemorySegment.ofAddress(0x10), 1);   // takes a snapshot now
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment large = arena.allocate(64L << 20);   // mapped by the C library after the snapshot
            assertEquals(64L << 20, ReadableMemory.readableBytes(large, 64L << 20));
            assertEquals(0, ReadableMemory.readableBytes(MemorySegment.ofAddress(8), 8), "NULL page");
        }
    }

    @Test
    void memoryUnmappedSinceTheSnapshotIsNotReadable() {
        MemorySegment gone;
        try (Arena arena = Arena.ofConfined()) {
            gone = arena.allocate(64L << 20);   // large: the C library maps it on its own and unmaps it on free
            assertEquals(64L << 20, ReadableMemory.readableBytes(gone, 64L << 20), "in the snapshot now");
        }
        assertEquals(0, ReadableMemory.readableBytes(MemorySegment.ofAddress(gone.address()), 8),
                "the cached snapshot still lists it; the kernel says it is gone");
    }
}
