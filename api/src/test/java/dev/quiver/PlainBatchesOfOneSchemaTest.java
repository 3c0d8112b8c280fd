package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An engine that hands over its schema once and then many plain {@code ArrowArray}s of it (the C producer of
 * {@code producer.c} here) imports each batch against the field read once, with no schema struct per batch; a batch
 * that does not fit the field is refused naming what is wrong, and every struct is released exactly once.
 */
class PlainBatchesOfOneSchemaTest {
    private static final ImportOptions UNTRUSTED = ImportOptions.on(CProducer.NO_BACKENDS).trust(ProducerTrust.UNTRUSTED);

    @Test
    void manyBatchesImportAgainstOneSchemaReadOnce() {
        try (Arena arena = Arena.ofConfined()) {
            CProducer.Structs first = CProducer.produce(arena, "struct_of_int32_utf8");
            Field field = Schemas.importFrom(first.schema(), ProducerTrust.UNTRUSTED);
            assertTrue(CProducer.releaseFromC(first.array(), MemorySegment.NULL));
            String expected = null;
            for (int batch = 0; batch < 50; batch++) {
                CProducer.Counters beforeProduce = CProducer.counters();
                CProducer.Structs structs = CProducer.produce(arena, "struct_of_int32_utf8");
                CProducer.Counters afterProduce = CProducer.counters();
                assertTrue(CProducer.releaseFromC(MemorySegment.NULL, structs.schema()), "the engine's schema of this batch, unused");
                try (DeviceArray array = Interchange.importPlain(plain(structs), field, UNTRUSTED)) {
                    assertEquals(DeviceType.CPU, array.deviceType());
                    assertEquals(field, array.field());
                    String values = ArrayReader.of(array).values().toString();
                    assertEquals(expected == null ? values : expected, values);
                    expected = values;
                }
                CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
            }
            assertEquals("[{a=1, b=x}, null, {a=null, b=null}, {a=4, b=zzz}]", expected);
        }
    }

    @Test
    void aBatchThatDoesNotFitTheSchemaIsRefusedAndReleasedOnce() {
        try (Arena arena = Arena.ofConfined()) {
            CProducer.Structs first = CProducer.produce(arena, "struct_of_int32_utf8");
            Field field = Schemas.importFrom(first.schema(), ProducerTrust.UNTRUSTED);
            assertTrue(CProducer.releaseFromC(first.array(), MemorySegment.NULL));
            CProducer.Counters beforeProduce = CProducer.counters();
            CProducer.Structs other = CProducer.produce(arena, "int32_with_nulls");
            CProducer.Counters afterProduce = CProducer.counters();
            assertTrue(CProducer.releaseFromC(MemorySegment.NULL, other.schema()));
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.importPlain(plain(other), field, UNTRUSTED));
            assertTrue(e.getMessage().contains("n_buffers: is 2 but format \"+s\" has 1 buffers"), e.getMessage());
            assertEquals(MemorySegment.NULL, plain(other).get(java.lang.foreign.ValueLayout.ADDRESS, ArrowArrayLayout.RELEASE),
                    "moved in, then released");
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }

    @Test
    void misuseIsRefusedBeforeAnythingMoves() {
        try (Arena arena = Arena.ofConfined()) {
            CProducer.Structs structs = CProducer.produce(arena, "int32_with_nulls");
            Field field = Schemas.importFrom(structs.schema(), ProducerTrust.UNTRUSTED);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> Interchange.importPlain(plain(structs), field, ImportOptions.on(CProducer.NO_BACKENDS).release(() -> { })));
            assertTrue(refused.getMessage().contains("ImportOptions.release"), refused.getMessage());
            try (DeviceArray array = Interchange.importPlain(plain(structs), field, UNTRUSTED)) {
                assertEquals(field, array.field(), "the caller still owned the struct after the refusal");
            }
        }
    }

    /** The plain {@code ArrowArray} inside the producer's ArrowDeviceArray. */
    private static MemorySegment plain(CProducer.Structs structs) {
        return structs.array().asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
    }
}
