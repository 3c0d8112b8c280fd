package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.Arena;
import java.util.Optional;

import static dev.quiver.CProducerImportTest.row;
import static dev.quiver.CProducerImportTest.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device codes this build does not know (DLPack's 17 kDLMAIA, 18 kDLTrn) survive import and re-export
 * unchanged; the C producer's release still runs exactly once, called by the C consumer.
 */
class UnknownDeviceTypeTest {

    @ParameterizedTest(name = "device_type {0} ({1})")
    @CsvSource({"17, kDLMAIA", "18, kDLTrn"})
    void survivesImportAndReexport(int code, String dlpackName) {
        long liveBefore = Diagnostics.liveExports();
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, "struct_of_int32_utf8", code);
            Counters afterProduce = CProducer.counters();

            DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS));
            assertEquals(code, array.deviceType().code());
            assertFalse(array.deviceType().isKnown());
            assertEquals(Optional.of(dlpackName), array.deviceType().dlpackName());
            assertEquals(-1, array.deviceId());
            assertThrows(IllegalArgumentException.class, () -> ArrayReader.of(array),
                    "memory of an unknown device is not read as host memory");

            var outArray = CConsumer.alloc(ArrowDeviceArrayLayout.LAYOUT.byteSize());
            var outSchema = CConsumer.alloc(ArrowSchemaLayout.LAYOUT.byteSize());
            try {
                Interchange.exportDevice(array, outArray, outSchema);
                CProducer.assertNothingReleasedSince(afterProduce);
                CConsumer.Result read = CConsumer.check(outArray, outSchema, code);
                assertEquals("struct:+s{a:i,b:u}", read.description());
                assertEquals(CConsumer.Sums.of(values(row("a", 1L, "b", "x"), null, row("a", null, "b", null),
                        row("a", 4L, "b", "zzz"))), read.sums(), "the producer's host buffers, read by the consumer");
                assertEquals(0, CConsumer.release(outArray, outSchema));
            } finally {
                CConsumer.free(outArray);
                CConsumer.free(outSchema);
            }
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
        assertEquals(liveBefore, Diagnostics.liveExports(), "a foreign struct passed through is not a Quiver export");
    }

    @org.junit.jupiter.api.Test
    void aDeviceTypeNoBackendServesImportsAndFailsClearlyWhenUsed() {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, "struct_of_int32_utf8", 999);
            Counters afterProduce = CProducer.counters();
            try (DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS))) {
                assertEquals("UNKNOWN(999)", array.deviceType().toString());
                NoBackendException copy = assertThrows(NoBackendException.class, () -> Copies.toHost(array));
                assertEquals(999, copy.type().code());
                assertTrue(copy.getMessage().contains("UNKNOWN(999)") && copy.getMessage().contains("code 999"), copy.getMessage());
                NoBackendException validate = assertThrows(NoBackendException.class, () -> Interchange.validateFull(array));
                assertTrue(validate.getMessage().contains("code 999"), validate.getMessage());
                assertTrue(array.toString().contains("999"), array.toString());
            }
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }
}
