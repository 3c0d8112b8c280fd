package dev.quiver.device.ffm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Allocation bookkeeping and the vendor's alignment limit. */
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
    void alignmentsBeyondTheVendorsGuaranteeAreRefused() {
        Allocations.checkAlignment(1, 256, "X");
        Allocations.checkAlignment(256, 256, "X");
        assertEquals("alignment must be a power of two up to 256 (what X guarantees), not 512",
                assertThrows(IllegalArgumentException.class, () -> Allocations.checkAlignment(512, 256, "X")).getMessage());
    }
}
