package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vector schema roots of many column types (a dictionary-encoded one among them) both ways: as struct
 * arrays with the schema's metadata, zero-copy, values compared row by row.
 */
class VectorSchemaRootTest extends LeakChecks {
    private static final Set<String> COLUMNS = Set.of("int64", "uint16", "float16", "decimal256_76_20", "utf8_view", "large_binary",
            "timestamp_micro_paris", "interval_month_day_nano", "list_of_struct", "map_utf8_int64", "sparse_union", "dense_union",
            "run_end_encoded_32", "dictionary_utf8_int32", "with_metadata");
    private static final Map<String, String> SCHEMA_METADATA = Map.of("origin", "VectorSchemaRootTest");
    private static final int ROWS = 29;

    private static List<Field> columns() {
        return TypeCatalogue.everyType().stream().filter(f -> COLUMNS.contains(f.name())).toList();
    }

    private static Field batchField() {
        return new Field("", new ArrowType.Struct(), false, columns(), Metadata.of(SCHEMA_METADATA), null);
    }

    @Test
    void aRootBecomesAStructDeviceArrayWithoutCopy() {
        Map<String, List<Object>> values = new LinkedHashMap<>();
        try (DictionaryProvider.MapDictionaryProvider dictionaries = new DictionaryProvider.MapDictionaryProvider()) {
            VectorFiller filler = new VectorFiller(allocator, dictionaries);
            List<FieldVector> vectors = new ArrayList<>();
            for (Field column : columns()) {
                values.put(column.name(), new RandomValues(column.name().hashCode()).of(column, ROWS));
                vectors.add(filler.create(column, values.get(column.name())));
            }
            Schema schema = new Schema(vectors.stream().map(FieldVector::getField).toList(), SCHEMA_METADATA);
            try (VectorSchemaRoot root = new VectorSchemaRoot(schema, vectors, ROWS);
                 DeviceArray array = VectorExport.toDeviceArray(root, dictionaries, allocator)) {
                EveryTypeTest.assertCpuStruct(array);
                assertEquals(TypeCatalogue.asArrowJavaKeepsIt(batchField()), TypeCatalogue.asArrowJavaKeepsIt(
                        new Field("", array.field().type(), false, array.field().children(), array.field().metadata(), null)));
                assertEquals(ROWS, array.length());
                List<Object> rows = ArrayReader.of(array).values();
                for (int r = 0; r < ROWS; r++) {
                    Map<?, ?> row = (Map<?, ?>) rows.get(r);
                    for (String name : values.keySet()) {
                        assertEquals(values.get(name).get(r), row.get(name), name + "[" + r + "]");
                    }
                }
                assertTrue(BufferTree.of(Interchange.arrowArray(array)).assertSameMemory(root.getFieldVectors(), dictionaries) > 0);
            }
        }
    }

    @Test
    void aStructDeviceArrayBecomesARootWithoutCopy() {
        Field batch = batchField();
        List<Object> rows = new RandomValues(5).of(batch, ROWS);
        DeviceArray array = HostVector.of(batch, rows).toDeviceArray();
        BufferTree before = BufferTree.of(Interchange.arrowArray(array));
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             VectorSchemaRoot root = VectorImport.toVectorSchemaRoot(array, allocator, dictionaries)) {
            assertEquals(ROWS, root.getRowCount());
            assertEquals(SCHEMA_METADATA, root.getSchema().getCustomMetadata());
            assertEquals(columns().stream().map(Field::name).toList(), root.getSchema().getFields().stream().map(org.apache.arrow.vector.types.pojo.Field::getName).toList());
            ArrowJavaValues read = new ArrowJavaValues(dictionaries);
            for (int r = 0; r < ROWS; r++) {
                Map<?, ?> row = (Map<?, ?>) rows.get(r);
                for (FieldVector column : root.getFieldVectors()) {
                    assertEquals(row.get(column.getName()), read.get(column, r), column.getName() + "[" + r + "]");
                }
            }
            assertTrue(before.assertSameMemory(root.getFieldVectors(), dictionaries) > 0);
        }
    }
}
