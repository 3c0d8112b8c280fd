package dev.quiver.plain;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.ImportOptions;
import dev.quiver.InvalidArrowException;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.FixedWidthVectors;
import dev.quiver.host.HostVector;
import dev.quiver.host.Validity;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A producer that exports 128-bit integers as {@code decimal(38, 0)}, as DuckDB exports {@code HUGEINT} and
 * {@code UHUGEINT}, hands over values of 39 digits (up to 2^127 - 1). By default full validation refuses them as
 * Arrow C++'s does, naming the column, the value, the likely producer and the option; with
 * {@link ImportOptions#decimalPrecision(boolean) decimalPrecision(false)} the batch is read whole, values and all,
 * and every other check still runs.
 */
class WideIntegersAsDecimalsTest {
    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    private static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();
    private static final ImportOptions UNTRUSTED = ImportOptions.on(Devices.cpuOnly()).trust(ProducerTrust.UNTRUSTED);

    @Test
    void byDefaultA39DigitValueIsRefusedNamingTheProducerAndTheOption() {
        try (Arena arena = Arena.ofConfined()) {
            Exported batch = export(arena);
            try (DeviceArray imported = Interchange.importPlain(batch.array(), batch.schema(), UNTRUSTED)) {
                InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> ArrayReader.of(imported));
                assertTrue(e.getMessage().contains("children[1].buffers[1]"), e.getMessage());
                assertTrue(e.getMessage().contains("(unscaled " + MAX + ") does not fit in precision 38"), e.getMessage());
                assertTrue(e.getMessage().contains("as DuckDB exports HUGEINT and UHUGEINT")
                        && e.getMessage().contains("ImportOptions.decimalPrecision(false)"), e.getMessage());
            }
        }
    }

    @Test
    void withDecimalPrecisionOffEveryValueThatFits128BitsIsReadAndItsViewsAndCopiesKeepTheChoice() {
        try (Arena arena = Arena.ofConfined()) {
            Exported batch = export(arena);
            try (DeviceArray imported = Interchange.importPlain(batch.array(), batch.schema(), UNTRUSTED.decimalPrecision(false));
                 DeviceArray column = imported.child(imported.field().childIndex("huge"));
                 DeviceArray copy = Copies.toHost(imported)) {
                List<Object> expected = List.of(new BigDecimal(MAX), new BigDecimal(MIN), BigDecimal.ONE);
                assertEquals(expected, ArrayReader.of(column).values(), "a view validates with the import's choice");
                assertEquals(expected, ArrayReader.of(copy).child(1).values(), "so does a copy");
                assertEquals(List.of(1L, 2L, 3L), ArrayReader.of(imported).child(0).values());
            }
        }
    }

    @Test
    void theChoiceRelaxesTheDigitsOnlyAndTheOptionsSayIt() {
        assertTrue(ImportOptions.defaults().checksDecimalPrecision());
        ImportOptions lenient = ImportOptions.defaults().decimalPrecision(false);
        assertTrue(!lenient.checksDecimalPrecision() && lenient.trust(ProducerTrust.UNTRUSTED).readOnly(true).name("x").devices(Devices.cpuOnly())
                .toString().contains("decimals within their bit width"), "kept through the other options");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowArrayLayout.LAYOUT);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);
            try (DeviceArray bad = HostVector.utf8("s", "a", "b").toDeviceArray(Devices.cpuOnly())) {
                Interchange.exportPlain(bad, array, schema, PlainExport.REFUSE);
            }
            MemorySegment offsets = array.get(java.lang.foreign.ValueLayout.ADDRESS, ArrowArrayLayout.BUFFERS)
                    .reinterpret(24).getAtIndex(java.lang.foreign.ValueLayout.ADDRESS, 1).reinterpret(12);
            offsets.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 1, 2);
            offsets.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 2, 1);   // descending: still refused
            try (DeviceArray imported = Interchange.importPlain(array, schema, UNTRUSTED.decimalPrecision(false))) {
                InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(imported));
                assertTrue(e.getMessage().contains("buffers[1]"), e.getMessage());
            }
        }
    }

    /** A struct of int64 "id" and decimal128(38, 0) "huge" holding 2^127 - 1, -2^127 and 1, exported plain. */
    private static Exported export(Arena arena) {
        long[] words = {-1L, Long.MAX_VALUE, 0L, Long.MIN_VALUE, 1L, 0L};
        HostVector table = HostVector.struct("t", FixedWidthVectors.int64("id", new long[] {1, 2, 3}, Validity.allValid()),
                FixedWidthVectors.decimal128("huge", 38, 0, words, Validity.allValid()));
        MemorySegment array = arena.allocate(ArrowArrayLayout.LAYOUT);
        MemorySegment schema = ArrowSchemaLayout.allocate(arena);
        try (DeviceArray built = table.toDeviceArray(Devices.cpuOnly())) {
            Interchange.exportPlain(built, array, schema, PlainExport.REFUSE);
        }
        return new Exported(array, schema);
    }

    private record Exported(MemorySegment array, MemorySegment schema) {}
}
