package dev.quiver.device.ffm;

import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link HostCopy} on both sides of its threshold, between native and heap segments, and within one segment
 * (overlapping, like memmove); its {@code memcpy} declaration against {@code string.h}.
 */
class HostCopyTest {

    @Test
    void copiesEverySizeAndKindOfSegment() {
        try (Arena arena = Arena.ofConfined()) {
            for (long size : new long[] {0, 1, 4096, HostCopy.MEMCPY_THRESHOLD - 1, HostCopy.MEMCPY_THRESHOLD, 1 << 20}) {
                byte[] pattern = pattern((int) size);
                MemorySegment source = arena.allocate(Math.max(size, 1)).asSlice(0, size);
                MemorySegment.copy(pattern, 0, source, JAVA_BYTE, 0, pattern.length);
                MemorySegment target = arena.allocate(size + 8);
                HostCopy.copy(source, target);
                assertArrayEquals(pattern, target.asSlice(0, size).toArray(JAVA_BYTE), size + " bytes, native to native");
                MemorySegment heap = MemorySegment.ofArray(new byte[(int) size]);
                HostCopy.copy(source, heap);
                assertArrayEquals(pattern, heap.toArray(JAVA_BYTE), size + " bytes, native to heap");
            }
        }
    }

    @Test
    void overlappingCopiesMoveLikeMemmove() {
        try (Arena arena = Arena.ofConfined()) {
            int size = (int) HostCopy.MEMCPY_THRESHOLD * 4;
            byte[] pattern = pattern(size);
            MemorySegment buffer = arena.allocate(size);
            MemorySegment.copy(pattern, 0, buffer, JAVA_BYTE, 0, size);
            int count = size - 100;
            HostCopy.copy(buffer.asSlice(0, count), buffer.asSlice(100, count));
            byte[] expected = pattern.clone();
            System.arraycopy(pattern, 0, expected, 100, count);
            assertArrayEquals(expected, buffer.toArray(JAVA_BYTE));
        }
    }

    @Test
    void aDestinationTooSmallIsRefusedBeforeAnyByteMoves() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(HostCopy.MEMCPY_THRESHOLD * 2);
            MemorySegment small = arena.allocate(HostCopy.MEMCPY_THRESHOLD);
            assertThrows(IndexOutOfBoundsException.class, () -> HostCopy.copy(source, small));
            assertEquals(0, small.get(JAVA_BYTE, 0));
        }
    }

    @Test
    void theDeclarationMatchesTheCLibraryHeader() {
        HostCopy.bind();
        CHeaderCheck check = new CHeaderCheck(List.of("#include <string.h>"));
        for (HostCopyFunction function : HostCopyFunction.values()) {
            check.function(function.c().prototype(), function.c().descriptor());
            assertEquals(function.name(), function.c().symbol(), "each entry is named after its symbol");
        }
        check.run("host_copy_header_checks.c", List.of());
    }

    private static byte[] pattern(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
