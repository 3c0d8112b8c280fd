package dev.quiver.device.ffm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Allocation bookkeeping and argument checks. */
class AllocationsTest {

    @Test
    void freesOnlyWhatIsLiveAndOnlyOnce() {
        Allocations allocations = new Allocations();
        MemorySegment pointer = MemorySegment.ofAddress(0x1000);
        allocations.add(pointer);
        assertEquals(1, allocations.size());
        allocations.remove(pointer, "DEVICE:0");
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> allocations.remove(pointer, "DEVICE:0"));
        assertEquals("0x1000 was not allocated by DEVICE:0 or was already freed", twice.getMessage());
        assertEquals(0, allocations.size());
    }

    @Test
    void requestsAreChecked() {
        Allocations.checkRequest(0, 1, 256, "X");
        Allocations.checkRequest(10, 256, 256, "X");
        assertEquals("byteSize is negative: -1",
                assertThrows(IllegalArgumentException.class, () -> Allocations.checkRequest(-1, 8, 256, "X")).getMessage());
        assertEquals("alignment must be a power of two up to 256 (what X guarantees), not 512",
                assertThrows(IllegalArgumentException.class, () -> Allocations.checkRequest(8, 512, 256, "X")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Allocations.checkRequest(8, 24, 256, "X"));
        assertThrows(IllegalArgumentException.class, () -> Allocations.checkRequest(8, 0, 256, "X"));
    }
}
