package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.abi.ArrowSchemaLayout;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Importing a top-level struct that is already released (release == NULL) fails without calling
 * anything on it; the other, live struct is released exactly once, as Interchange.importDevice documents.
 */
class ReleasedStructImportTest {

    @Test
    void releasedArrayIsRejectedAndItsLiveSchemaReleasedOnce() {
        try (Arena arena = Arena.ofConfined()) {
            Structs c = CProducer.produce(arena, "released_array");
            Counters afterProduce = CProducer.counters();

            InvalidArrowException e = assertThrows(InvalidArrowException.class,
                    () -> Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS)));

            assertEquals("release", e.fieldPath());
            Counters delta = CProducer.counters().since(afterProduce);
            assertEquals(0, delta.arrayReleases(), "nothing called on the released array");
            assertEquals(0, delta.releasesOfReleased(), "no release of a released struct");
            assertEquals(1, delta.rootSchemaReleases(), "the live schema is released once");
            assertEquals(MemorySegment.NULL, c.schema().get(ADDRESS, ArrowSchemaLayout.RELEASE));
            assertEquals(-1, delta.liveSchemaNodes(), "the schema's one node is freed");
        }
    }

    @Test
    void releasedSchemaIsRejectedAndItsLiveArrayReleasedOnce() {
        try (Arena arena = Arena.ofConfined()) {
            Structs c = CProducer.produce(arena, "released_schema");
            Counters afterProduce = CProducer.counters();

            InvalidArrowException e = assertThrows(InvalidArrowException.class,
                    () -> Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS)));

            assertEquals("schema.release", e.fieldPath());
            Counters delta = CProducer.counters().since(afterProduce);
            assertEquals(0, delta.schemaReleases(), "nothing called on the released schema");
            assertEquals(0, delta.releasesOfReleased(), "no release of a released struct");
            assertEquals(1, delta.rootArrayReleases(), "the live array is released once");
            assertEquals(-1, delta.liveArrayNodes(), "the array's one node is freed");
        }
    }
}
