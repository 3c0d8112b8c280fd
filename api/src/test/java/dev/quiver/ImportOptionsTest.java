package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.dlpack.DLPack;
import dev.quiver.dlpack.DLPackExport;
import dev.quiver.dlpack.DLPackExportOptions;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One options type for every import: what each option does on the C Data imports and what they refuse. */
class ImportOptionsTest {
    private static final Devices CPU = Devices.cpuOnly();

    @Test
    void theDefaultsAreTheSystemsDevicesTheEnvironmentsTrustAndNothingElse() {
        ImportOptions defaults = ImportOptions.defaults();
        assertSame(Devices.system(), defaults.devices());
        assertEquals(ProducerTrust.fromEnvironment(), defaults.trust());
        assertFalse(defaults.readOnly());
        assertFalse(defaults.copyAllowed());
        assertTrue(defaults.fieldName().isEmpty());
        assertTrue(defaults.releaseAction().isEmpty());
        assertEquals(null, defaults.consumerStreamHandle());
        ImportOptions set = ImportOptions.on(CPU).trust(ProducerTrust.UNTRUSTED).readOnly(true).name("n");
        assertSame(CPU, set.devices());
        assertEquals(ProducerTrust.UNTRUSTED, set.trust());
        assertTrue(set.readOnly());
        assertEquals("n", set.fieldName().orElseThrow());
        assertFalse(defaults.readOnly(), "each option makes new options");
    }

    @Test
    void aReadOnlyImportOfAnArrowDeviceArrayRefusesWritesAndItsCopyDoesNot() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(HostVector.int64("x", 1L, null, 3L).toDeviceArray(CPU), array, schema);
            try (DeviceArray imported = Interchange.importDevice(array, schema, ImportOptions.on(CPU).readOnly(true))) {
                assertTrue(imported.isReadOnly());
                assertThrows(ReadOnlyArrayException.class, () -> ArrayAccess.checkWritable(imported));
                assertEquals(java.util.Arrays.asList(1L, null, 3L), ArrayReader.of(imported).values());
                try (DeviceArray copy = Copies.toHost(imported)) {
                    assertFalse(copy.isReadOnly());
                }
            }
        }
    }

    @Test
    void aReadOnlyImportWithAKnownFieldAndAPlainImportBothRefuseWrites() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            DeviceArray source = HostVector.int32("y", 7, 8).toDeviceArray(CPU);
            Interchange.exportDevice(source, array, MemorySegment.NULL);
            try (DeviceArray imported = Interchange.importDevice(array, source.field(), ImportOptions.on(CPU).readOnly(true))) {
                assertTrue(imported.isReadOnly());
            }
            MemorySegment plain = arena.allocate(ArrowArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            try (DeviceArray host = HostVector.int32("z", 9).toDeviceArray(CPU)) {
                Interchange.exportPlain(host, plain, schema, PlainExport.REFUSE);
            }
            try (DeviceArray imported = Interchange.importPlain(plain, schema,
                    ImportOptions.on(CPU).trust(ProducerTrust.UNTRUSTED).readOnly(true))) {
                assertTrue(imported.isReadOnly());
                assertEquals(List.of(9L), ArrayReader.of(imported).values(), "integers read as longs");
            }
        }
    }

    @Test
    void theOptionsOfADescriptorAreRefusedForStructsThatCarryTheirOwnReleaseAndTheCallerKeepsThem() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(HostVector.int64("x", 4L).toDeviceArray(CPU), array, schema);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> Interchange.importDevice(array, schema, ImportOptions.on(CPU).release(() -> { })));
            assertTrue(refused.getMessage().contains("ImportOptions.release is for CUDA Array Interface imports"), refused.getMessage());
            assertNotEquals(MemorySegment.NULL, array.get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE),
                    "checked before anything moved: the caller still owns the structs");
            try (DeviceArray imported = Interchange.importDevice(array, schema, ImportOptions.on(CPU))) {
                assertEquals(List.of(4L), ArrayReader.of(imported).values());
            }
        }
    }

    @Test
    void aDLPackImportRefusesADescriptorsReleaseActionAndTakesReadOnly() {
        DeviceArray source = HostVector.int32("t", 1, 2, 3).toDeviceArray(CPU);
        DLPackExport export = DLPack.exportVersioned(source, DLPackExportOptions.defaults());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> DLPack.importVersioned(export.tensor(), ImportOptions.on(CPU).release(() -> { })));
        assertTrue(refused.getMessage().contains("a DLPack tensor carries its own deleter"), refused.getMessage());
        try (DeviceArray imported = DLPack.importVersioned(export.tensor(), ImportOptions.on(CPU).readOnly(true).name("t"))) {
            assertTrue(imported.isReadOnly());
            assertEquals("t", imported.field().name());
            assertEquals(List.of(1L, 2L, 3L), ArrayReader.of(imported).values());
        } finally {
            source.close();
        }
    }
}
