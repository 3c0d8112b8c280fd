package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.host.UnionValue;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.UuidVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.extension.UuidType;
import org.apache.arrow.vector.types.pojo.ExtensionTypeRegistry;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where Arrow Java's own model differs from the C Data Interface, and what the bridge does about it: list
 * element names are not kept; dense unions with type ids out of order and sparse unions with type ids other
 * than Arrow Java's minor-type ordinals cannot be exported faithfully by Arrow Java, so the bridge refuses
 * them; extension types travel as their storage with the extension metadata.
 */
class ArrowJavaQuirksTest extends LeakChecks {
    private static final List<Field> MEMBERS = List.of(TypeCatalogue.leaf("i", new ArrowType.Int(32, true)), TypeCatalogue.leaf("s", new ArrowType.Utf8()));

    @Test
    void listElementsAreNamedDataInArrowJava() {
        Field list = Field.list("l", true, TypeCatalogue.leaf("element", new ArrowType.Utf8()));
        List<Object> values = Arrays.asList(List.of("a", "b"), null, List.of());
        try (FieldVector vector = VectorImport.toFieldVector(HostVector.of(list, values).toDeviceArray(), allocator, null)) {
            assertEquals("$data$", vector.getField().getChildren().getFirst().getName());
            assertEquals(values, new ArrowJavaValues(null).values(vector));
        }
    }

    @Test
    void refusesToExportADenseUnionWhoseTypeIdsAreOutOfOrder() {
        Field union = Field.of("u", new ArrowType.Union(ArrowType.UnionMode.DENSE, List.of(9, 4)), true, MEMBERS);
        List<Object> values = List.of(new UnionValue(9, 1L), new UnionValue(4, "x"), new UnionValue(9, null));
        try (DictionaryProvider.MapDictionaryProvider none = new DictionaryProvider.MapDictionaryProvider();
             FieldVector vector = new VectorFiller(allocator, none).create(union, values)) {
            assertEquals(values, new ArrowJavaValues(null).values(vector), "Arrow Java itself reads the union right");
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorExport.toDeviceArray(vector, allocator));
            assertTrue(refused.getMessage().startsWith("u: Arrow Java would export this dense union's members as [s, i] in the schema but [i, s]"),
                    refused.getMessage());
        }
    }

    @Test
    void readsASparseUnionWithAnyTypeIdsButRefusesToExportItAgain() {
        Field union = Field.of("u", new ArrowType.Union(ArrowType.UnionMode.SPARSE, List.of(0, 1)), true, MEMBERS);
        List<Object> values = List.of(new UnionValue(0, 7L), new UnionValue(1, "y"), new UnionValue(1, null));
        try (FieldVector vector = VectorImport.toFieldVector(HostVector.of(union, values).toDeviceArray(), allocator, null)) {
            assertEquals(values, new ArrowJavaValues(null).values(vector));
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> VectorExport.toDeviceArray(vector, allocator));
            assertTrue(refused.getMessage().startsWith("u[0] has type id 0, but Arrow Java would export the union's type ids as"),
                    refused.getMessage());
        }
    }

    @Test
    void extensionTypesTravelAsStorageWithTheirMetadata() {
        List<UUID> uuids = new ArrayList<>();
        Random random = new Random(11);
        try (UuidVector vector = new UuidVector("id", allocator)) {
            vector.allocateNew(5);
            for (int i = 0; i < 5; i++) {
                uuids.add(i == 2 ? null : new UUID(random.nextLong(), random.nextLong()));
                if (uuids.get(i) != null) {
                    vector.set(i, uuids.get(i));
                }
            }
            vector.setValueCount(5);
            DeviceArray array = VectorExport.toDeviceArray(vector, allocator);
            assertEquals(new ArrowType.FixedSizeBinary(16), array.field().type());
            assertEquals(UuidType.EXTENSION_NAME, array.field().metadata().get(Metadata.EXTENSION_NAME).orElseThrow());
            List<Object> bytes = uuids.stream().map(u -> u == null ? null : (Object) uuidBytes(u)).toList();
            assertEquals(bytes, ArrayReader.of(array).values());
            BufferTree shared = BufferTree.of(Interchange.arrowArray(array));
            ExtensionTypeRegistry.register(UuidType.INSTANCE);
            try (CDataDictionaryProvider none = new CDataDictionaryProvider();
                 FieldVector back = VectorImport.toFieldVector(array, allocator, none)) {
                UuidVector uuidsBack = assertInstanceOf(UuidVector.class, back, "with the extension registered, Arrow Java makes it a UuidVector");
                for (int i = 0; i < 5; i++) {
                    assertEquals(uuids.get(i), uuidsBack.getObject(i));
                }
                assertTrue(shared.assertSameMemory(back, none) > 0);
            } finally {
                ExtensionTypeRegistry.unregister(UuidType.INSTANCE);
            }
        }
    }

    @Test
    void unregisteredExtensionsArriveAsTheirStorage() {
        Field field = Field.of("id", new ArrowType.FixedSizeBinary(16), true)
                .withMetadata(java.util.Map.of(Metadata.EXTENSION_NAME, UuidType.EXTENSION_NAME, Metadata.EXTENSION_METADATA, ""));
        List<Object> values = new RandomValues(12).of(field, 6);
        try (FieldVector vector = VectorImport.toFieldVector(HostVector.of(field, values).toDeviceArray(), allocator, null)) {
            assertInstanceOf(FixedSizeBinaryVector.class, vector);
            assertEquals(UuidType.EXTENSION_NAME, vector.getField().getMetadata().get(Metadata.EXTENSION_NAME));
            assertEquals(values, new ArrowJavaValues(null).values(vector));
        }
    }

    private static ByteBuffer uuidBytes(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).flip().asReadOnlyBuffer();
    }
}
