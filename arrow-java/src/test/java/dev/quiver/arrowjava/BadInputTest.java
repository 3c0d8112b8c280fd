package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;
import org.apache.arrow.vector.extension.UuidType;
import org.apache.arrow.vector.types.pojo.ExtensionTypeRegistry;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType.Int;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the bridge refuses, and that a refusal loses nothing: arrays refused before the handover stay open
 * and usable; arrays Arrow Java rejects after it are released exactly once (Quiver's live exports return to
 * where they were); failed exports leave no Arrow Java memory behind.
 */
class BadInputTest extends LeakChecks {

    @Test
    void refusesASliceBecauseArrowJavaIgnoresOffsets() {
        HostVector whole = HostVector.utf8("s", "a", "bb", null, "dddd", "eeeee", "ffffff");
        try (DeviceArray slice = whole.slice(2, 3).toDeviceArray()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorImport.toFieldVector(slice, allocator, null));
            assertTrue(refused.getMessage().startsWith("s.offset is 2"), refused.getMessage());
            assertFalse(slice.isClosed(), "the refused array is still the caller's");
            assertEquals(Arrays.asList(null, "dddd", "eeeee"), ArrayReader.of(slice).values(), "and still readable");
        }
    }

    @Test
    void refusesANestedSliceNamingItsPath() {
        Field list = Field.list("l", true, Field.of("item", new ArrowType.Int(32, true), true));
        HostVector batch = HostVector.struct("batch", HostVector.of(list, List.of(List.of(1L, 2L), List.of(3L), List.of(4L, 5L, 6L))));
        try (Arena structs = Arena.ofConfined()) {
            MemorySegment deviceArray = structs.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = structs.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(batch.toDeviceArray(), deviceArray, schema);
            // As a producer that slices a child would: children[0] now starts at its second list.
            MemorySegment child = deviceArray.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(8).get(ADDRESS, 0).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
            child.set(JAVA_LONG, ArrowArrayLayout.OFFSET, 1);
            child.set(JAVA_LONG, ArrowArrayLayout.LENGTH, 2);
            child.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, 0);
            deviceArray.set(JAVA_LONG, ArrowArrayLayout.LENGTH, 2);
            try (DeviceArray array = Interchange.importDevice(deviceArray, schema)) {
                assertEquals(List.of(java.util.Map.of("l", List.of(3L)), java.util.Map.of("l", List.of(4L, 5L, 6L))), ArrayReader.of(array).values());
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorImport.toVectorSchemaRoot(array, allocator, null));
                assertTrue(refused.getMessage().startsWith("batch.children[0](l).offset is 1"), refused.getMessage());
                assertFalse(array.isClosed());
            }
        }
    }

    @Test
    void refusesDecimalsArrowJavaWouldReadAsWiderOnes() {
        Field decimal32 = Field.struct("batch", true, List.of(Field.of("d", new ArrowType.Decimal(9, 2, 32), true)));
        try (DeviceArray array = HostVector.of(decimal32, List.of(java.util.Map.of("d", new BigDecimal("1.25")))).toDeviceArray()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorImport.toFieldVector(array, allocator, null));
            assertTrue(refused.getMessage().startsWith("batch.children[0](d) is a 32-bit decimal"), refused.getMessage());
            assertFalse(array.isClosed());
        }
    }

    @Test
    void refusesADictionaryEncodedArrayWithoutAProvider() {
        Field field = TypeCatalogue.dictionary("d", new ArrowType.Int(32, true), TypeCatalogue.leaf("values", new ArrowType.Utf8()), false);
        try (DeviceArray array = HostVector.of(field, Arrays.asList("x", null, "y", "x")).toDeviceArray()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorImport.toFieldVector(array, allocator, null));
            assertTrue(refused.getMessage().contains("d is dictionary-encoded"), refused.getMessage());
            assertFalse(array.isClosed());
        }
    }

    @Test
    void refusesANonStructArrayAsAVectorSchemaRoot() {
        try (DeviceArray array = HostVector.int32("n", 1, 2).toDeviceArray()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorImport.toVectorSchemaRoot(array, allocator, null));
            assertTrue(refused.getMessage().contains("not a struct"), refused.getMessage());
            assertFalse(array.isClosed());
        }
    }

    @Test
    void refusesAClosedArray() {
        DeviceArray array = HostVector.int32("n", 1, 2).toDeviceArray();
        array.close();
        assertThrows(IllegalStateException.class, () -> VectorImport.toFieldVector(array, allocator, null));
    }

    @Test
    void releasesExactlyOnceWhatArrowJavaRejectsAfterTheHandover() {
        long exportsBefore = Diagnostics.liveExports();
        Field notAUuid = Field.of("u", new ArrowType.Utf8(), true).withMetadata(java.util.Map.of(Metadata.EXTENSION_NAME, UuidType.EXTENSION_NAME));
        DeviceArray array = HostVector.of(notAUuid, Arrays.asList("not", "sixteen bytes")).toDeviceArray();
        ExtensionTypeRegistry.register(UuidType.INSTANCE);
        try {
            IllegalArgumentException rejected = assertThrows(IllegalArgumentException.class, () -> VectorImport.toFieldVector(array, allocator, null));
            assertTrue(rejected.getMessage().startsWith("Arrow Java could not import"), rejected.getMessage());
            assertTrue(rejected.getMessage().contains("Cannot construct UuidType"), rejected.getMessage());
        } finally {
            ExtensionTypeRegistry.unregister(UuidType.INSTANCE);
        }
        assertTrue(array.isClosed(), "the array was handed over");
        assertEquals(exportsBefore, Diagnostics.liveExports(), "its release ran");
    }

    @Test
    void refusesToExportADictionaryEncodedVectorWhoseDictionaryIsMissing() {
        DictionaryEncoding encoding = new DictionaryEncoding(7, false, new Int(32, true));
        try (IntVector indices = new IntVector("d", new FieldType(true, new Int(32, true), encoding), allocator);
             DictionaryProvider.MapDictionaryProvider empty = new DictionaryProvider.MapDictionaryProvider()) {
            indices.allocateNew(1);
            indices.set(0, 0);
            indices.setValueCount(1);
            IllegalArgumentException withoutProvider = assertThrows(IllegalArgumentException.class, () -> VectorExport.toDeviceArray(indices, allocator));
            assertTrue(withoutProvider.getMessage().contains("no DictionaryProvider"), withoutProvider.getMessage());
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> VectorExport.toDeviceArray(indices, empty, allocator));
            assertTrue(missing.getMessage().contains("dictionary id 7"), missing.getMessage());
        }
    }

    @Test
    void aVectorSchemaRootWithAnEncodedColumnNeedsItsDictionary() {
        DictionaryEncoding encoding = new DictionaryEncoding(3, false, new Int(16, true));
        org.apache.arrow.vector.types.pojo.Field encoded = new org.apache.arrow.vector.types.pojo.Field("e",
                new FieldType(true, new Int(16, true), encoding), null);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(encoded)), allocator);
             VarCharVector unrelated = new VarCharVector("v", allocator)) {
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> VectorExport.toDeviceArray(root, new DictionaryProvider.MapDictionaryProvider(), allocator));
            assertTrue(missing.getMessage().startsWith("e is dictionary-encoded with dictionary id 3"), missing.getMessage());
            assertEquals(0, unrelated.getValueCount());
        }
    }

    @Test
    void aRejectedImportLeavesTheDictionaryProviderUsable() {
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             DeviceArray sliced = HostVector.int32("n", 1, 2, 3).slice(1, 1).toDeviceArray()) {
            assertThrows(IllegalArgumentException.class, () -> VectorImport.toFieldVector(sliced, allocator, dictionaries));
            assertTrue(dictionaries.getDictionaryIds().isEmpty());
        }
    }
}
