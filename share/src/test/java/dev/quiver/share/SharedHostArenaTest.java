package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import dev.quiver.memory.MemoryPool;
import dev.quiver.share.internal.arrays.PlannedBatch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shareable host memory: arenas, the pool allocator, and which arrays a handoff sends without a copy. */
@SuppressWarnings("try")   // holds closed by try-with-resources, unused inside
class SharedHostArenaTest {

    @Test
    void anArrayCopiedIntoAnArenaReadsTheSameAndPlansAZeroCopyHandoff() throws Exception {
        try (SharedHostArena arena = SharedHostArena.create(1 << 20);
             DeviceArray built = Batches.table(5, 300).toDeviceArray();
             DeviceArray placed = arena.copyOf(built)) {
            assertEquals(Batches.describe(built), Batches.describe(placed));
            assertTrue(arena.used() > 0);
            PlannedBatch shared = PlannedBatch.of(placed);
            PlannedBatch copied = PlannedBatch.of(built);
            try (AutoCloseable a = shared.hold(); AutoCloseable b = copied.hold()) {
                assertFalse(shared.copied());
                assertEquals(1, shared.regions().size(), "every buffer of the array lies in the arena's one memory file");
                assertTrue(copied.copied());
                assertEquals(shared.nodes().size(), copied.nodes().size());
            }
        }
        assertEquals(0, ShareStatistics.openRegions());
    }

    @Test
    void theArenaLivesUntilItsLastBufferIsClosed() {
        SharedHostArena arena = SharedHostArena.create(4096);
        DeviceBuffer buffer = arena.allocate(100);
        arena.close();
        assertEquals(1, ShareStatistics.openRegions());
        buffer.asSegment().fill((byte) 7);
        buffer.close();
        assertEquals(0, ShareStatistics.openRegions());
        assertThrows(IllegalStateException.class, () -> arena.allocate(1));
    }

    @Test
    void aFullArenaSaysHowMuchIsLeft() {
        try (SharedHostArena arena = SharedHostArena.create(4096)) {
            arena.allocate(4000).close();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> arena.allocate(200));
            assertTrue(e.getMessage().contains("has 64 bytes left; 200 asked"), e.getMessage());
        }
    }

    @Test
    void aPoolOnTheSharedAllocatorMakesBuffersThatShareWithoutACopy() {
        SharedHostAllocator allocator = new SharedHostAllocator();
        MemoryPool pool = Devices.system().cpu().memoryPool();
        java.lang.foreign.MemorySegment block = allocator.allocate(10_000, 64);
        try {
            assertEquals(1, ShareStatistics.openRegions());
            assertEquals(0, block.address() % 4096);
            block.fill((byte) 1);
        } finally {
            allocator.free(block);
        }
        assertEquals(0, ShareStatistics.openRegions());
        assertThrows(IllegalArgumentException.class, () -> allocator.free(block));
        assertTrue(pool.limit() > 0);
    }

    @Test
    void aUtf8VectorWithOnlyNullsAndEmptyStringsSurvivesTheArena() {
        try (SharedHostArena arena = SharedHostArena.create(4096);
             DeviceArray built = HostVector.utf8("s", null, "", null).toDeviceArray();
             DeviceArray placed = arena.copyOf(built)) {
            assertEquals(Batches.describe(built), Batches.describe(placed));
        }
    }
}
