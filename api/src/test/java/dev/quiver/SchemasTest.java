package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Schemas alone through the C Data interface: written, read back, and refused with every struct released once. */
class SchemasTest {

    @Test
    void aFieldWrittenAsAnArrowSchemaReadsBackEqual() {
        Field field = Field.struct("", false, List.of(
                Field.of("id", ArrowType.integer(64, true), false),
                Field.list("tags", true, Field.of("item", ArrowType.utf8(), true))));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Schemas.exportTo(field, schema);
            assertEquals(field, Schemas.importFrom(schema, ProducerTrust.UNTRUSTED));
            assertEquals(MemorySegment.NULL, schema.get(ADDRESS, ArrowSchemaLayout.RELEASE), "moved in and released");
        }
    }

    @Test
    void aSchemaFromCIsReadAndReleasedOnce() {
        try (Arena arena = Arena.ofConfined()) {
            Counters before = CProducer.counters();
            Structs c = CProducer.produce(arena, "int64");
            Counters afterProduce = CProducer.counters();
            Field field = Schemas.importFrom(c.schema(), ProducerTrust.TRUSTED);
            assertEquals(ArrowType.integer(64, true), field.type());
            assertEquals(1, CProducer.counters().since(afterProduce).rootSchemaReleases(), "the schema is released once");
            assertTrue(CProducer.releaseFromC(c.array(), MemorySegment.NULL), "the array stays the caller's");
            CProducer.assertReleasedExactlyOnce(before, afterProduce);
        }
    }

    @Test
    void aBadSchemaIsRefusedNamingItsPathAndIsStillReleasedOnce() {
        for (String bad : List.of("struct_member_unknown_format", "lists_nested_65_deep", "unknown_schema_flags")) {
            try (Arena arena = Arena.ofConfined()) {
                Structs c = CProducer.produce(arena, bad);
                Counters afterProduce = CProducer.counters();
                InvalidArrowException e = assertThrows(InvalidArrowException.class,
                        () -> Schemas.importFrom(c.schema(), ProducerTrust.UNTRUSTED), bad);
                assertTrue(e.fieldPath().startsWith("schema"), bad + ": " + e.fieldPath());
                Counters delta = CProducer.counters().since(afterProduce);
                assertEquals(1, delta.rootSchemaReleases(), bad + ": the schema is released once");
                assertEquals(0, delta.releasesOfReleased(), bad);
                assertTrue(CProducer.releaseFromC(c.array(), MemorySegment.NULL), bad);
            }
        }
    }

    @Test
    void aNullOrReleasedSchemaIsRefusedAndTheCallerKeepsWhatItHas() {
        assertThrows(IllegalArgumentException.class, () -> Schemas.importFrom(MemorySegment.NULL, ProducerTrust.TRUSTED));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment released = arena.allocate(ArrowSchemaLayout.LAYOUT);
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Schemas.importFrom(released, ProducerTrust.TRUSTED));
            assertEquals("release", e.fieldPath());
        }
    }
}
