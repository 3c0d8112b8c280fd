package dev.quiver.internal.abi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A copy split over four threads lands every byte in place, from memory confined to the calling thread, at
 * odd offsets and lengths; out-of-range copies are refused before any thread starts.
 */
class ParallelCopiesTest {
    @Test
    void splitCopiesLandEveryByteFromConfinedMemory() {
        try (Arena arena = Arena.ofConfined()) {
            long size = 5 * ParallelCopies.PARALLEL_FROM + 12_345;
            MemorySegment from = arena.allocate(size + 3);
            for (long i = 0; i < from.byteSize(); i++) {
                from.set(JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            for (int threads : new int[] {1, 2, 3, 4, 16}) {
                MemorySegment to = arena.allocate(size + 11);
                ParallelCopies.copy(from, 3, to, 11, size, threads);
                assertEquals(-1, from.asSlice(3, size).mismatch(to.asSlice(11, size)), threads + " threads");
                assertEquals(0, to.get(JAVA_BYTE, 10), "nothing before the range");
            }
            MemorySegment small = arena.allocate(size);
            assertThrows(IndexOutOfBoundsException.class, () -> ParallelCopies.copy(from, 0, small, 1, size, 4));
        }
    }
}
