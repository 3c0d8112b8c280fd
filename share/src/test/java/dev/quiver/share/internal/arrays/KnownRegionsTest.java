package dev.quiver.share.internal.arrays;

import dev.quiver.share.internal.memory.SharedRegion;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ProtocolException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The owner's record of a receiver's regions refuses a batch that alone is past the receiver's bound, naming the bound. */
class KnownRegionsTest {

    @Test
    void aBatchInMoreRegionsThanTheReceiverKeepsIsALimitNamingMaxRegions() {
        try (SharedRegion first = SharedRegion.create("quiver-test", 4096);
             SharedRegion second = SharedRegion.create("quiver-test", 4096)) {
            KnownRegions known = new KnownRegions(1, 1 << 20);
            ProtocolException e = assertThrows(ProtocolException.class, () -> known.assign(List.of(first, second)));
            assertEquals(ErrorCode.LIMIT, e.code());
            assertEquals("one batch lies in 2 regions; the receiver's max_regions is 1", e.getMessage());
            assertArrayEquals(new long[] {1}, known.assign(List.of(second)).ids(), "nothing was recorded for the refused batch");
        }
    }

    @Test
    void aBatchOfMoreBytesThanTheReceiverMapsIsALimitNamingMaxMappedBytes() {
        try (SharedRegion region = SharedRegion.create("quiver-test", 4096)) {
            ProtocolException e = assertThrows(ProtocolException.class, () -> new KnownRegions(8, 4095).assign(List.of(region)));
            assertEquals(ErrorCode.LIMIT, e.code());
            assertEquals("one batch lies in 1 region(s) of 4096 bytes; the receiver's max_mapped_bytes is 4095", e.getMessage());
        }
    }
}
