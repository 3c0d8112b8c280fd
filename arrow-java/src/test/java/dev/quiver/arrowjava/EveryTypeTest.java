package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every type Arrow Java has a vector for, with random values from fixed seeds, both ways: real Arrow Java
 * vectors exported to DeviceArrays and read with {@link ArrayReader}; Quiver arrays imported into Arrow Java
 * vectors and read with Arrow Java's accessors; and Arrow Java to Arrow Java through a DeviceArray. Each
 * direction asserts that no buffer was copied (same memory addresses on both sides).
 */
class EveryTypeTest extends LeakChecks {
    private static final int ROWS = 37;

    static Stream<Arguments> everyTypeAndLength() {
        return TypeCatalogue.everyType().stream().flatMap(field -> Stream.of(Arguments.of(field.name(), field, ROWS), Arguments.of(field.name(), field, 0)));
    }

    private static List<Object> randomValues(Field field, int rows) {
        return new RandomValues(field.name().hashCode() * 1_000_003L + rows).of(field, rows);
    }

    @ParameterizedTest(name = "{0}, {2} rows")
    @MethodSource("everyTypeAndLength")
    void arrowJavaVectorBecomesDeviceArrayWithoutCopy(String name, Field field, int rows) {
        List<Object> values = randomValues(field, rows);
        try (DictionaryProvider.MapDictionaryProvider dictionaries = new DictionaryProvider.MapDictionaryProvider();
             FieldVector vector = new VectorFiller(allocator, dictionaries).create(field, values)) {
            assertEquals(values, new ArrowJavaValues(dictionaries).values(vector), "the Arrow Java vector holds the random values");
            try (DeviceArray array = VectorExport.toDeviceArray(vector, dictionaries, allocator)) {
                assertCpuStruct(array);
                assertEquals(TypeCatalogue.asArrowJavaKeepsIt(field), TypeCatalogue.asArrowJavaKeepsIt(array.field()), "the exported schema");
                assertEquals(values, ArrayReader.of(array).values(), "values read by Quiver");
                Interchange.validateFull(array);
                assertShared(field, rows, BufferTree.of(Interchange.arrowArray(array)).assertSameMemory(vector, dictionaries));
            }
        }
    }

    @ParameterizedTest(name = "{0}, {2} rows")
    @MethodSource("everyTypeAndLength")
    void deviceArrayBecomesArrowJavaVectorWithoutCopy(String name, Field field, int rows) {
        List<Object> values = randomValues(field, rows);
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
            DeviceArray array = HostVector.of(field, values).toDeviceArray();
            BufferTree before = BufferTree.of(Interchange.arrowArray(array));
            assertEquals(values, ArrayReader.of(array).values(), "values read by Quiver");
            try (FieldVector vector = VectorImport.toFieldVector(array, allocator, dictionaries)) {
                assertTrue(array.isClosed(), "the DeviceArray was moved into Arrow Java");
                assertEquals(arrowJavaVectorField(field), vector.getField(), "the imported Arrow Java field");
                assertEquals(values, new ArrowJavaValues(dictionaries).values(vector), "values read by Arrow Java");
                assertShared(field, rows, before.assertSameMemory(vector, dictionaries));
            }
        }
    }

    @ParameterizedTest(name = "{0}, {2} rows")
    @MethodSource("everyTypeAndLength")
    void arrowJavaVectorComesBackThroughDeviceArrayWithoutCopy(String name, Field field, int rows) {
        List<Object> values = randomValues(field, rows);
        try (DictionaryProvider.MapDictionaryProvider dictionaries = new DictionaryProvider.MapDictionaryProvider();
             CDataDictionaryProvider imported = new CDataDictionaryProvider();
             FieldVector vector = new VectorFiller(allocator, dictionaries).create(field, values)) {
            DeviceArray array = VectorExport.toDeviceArray(vector, dictionaries, allocator);
            BufferTree shared = BufferTree.of(Interchange.arrowArray(array));
            try (FieldVector back = VectorImport.toFieldVector(array, allocator, imported)) {
                assertEquals(values, new ArrowJavaValues(imported).values(back), "values after the round trip");
                assertShared(field, rows, shared.assertSameMemory(vector, dictionaries));
                assertShared(field, rows, shared.assertSameMemory(back, imported));
            }
        }
    }

    /** The field an Arrow Java vector made for {@code field} reports (Arrow Java renames and reorders some children). */
    private org.apache.arrow.vector.types.pojo.Field arrowJavaVectorField(Field field) {
        try (FieldVector made = ArrowJavaFields.of(field, new AtomicLong()).createVector(allocator)) {
            return made.getField();
        }
    }

    static void assertCpuStruct(DeviceArray array) {
        assertEquals(DeviceType.CPU, array.deviceType());
        assertEquals(-1, array.deviceId());
        MemorySegment struct = Interchange.struct(array);
        assertEquals(MemorySegment.NULL, struct.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT), "sync_event");
        for (long i = 0; i < ArrowDeviceArrayLayout.RESERVED_BYTES; i++) {
            assertEquals(0, struct.get(JAVA_BYTE, ArrowDeviceArrayLayout.RESERVED + i), "reserved byte " + i);
        }
    }

    private static void assertShared(Field field, int rows, int compared) {
        if (rows > 0 && !(field.type() instanceof ArrowType.Null)) {
            assertTrue(compared > 0, "no buffer was compared");
        }
    }
}
