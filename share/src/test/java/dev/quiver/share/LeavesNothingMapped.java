package dev.quiver.share;

import org.junit.jupiter.api.AfterEach;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** For test classes whose every test must end with no region of another process mapped and none of this one open. */
interface LeavesNothingMapped {
    @AfterEach
    default void nothingIsLeftMappedOrHeld() {
        assertEquals(0, ShareStatistics.mappedRegions(), "every mapping of a refused batch is undone");
        assertEquals(0, ShareStatistics.openRegions());
    }
}
