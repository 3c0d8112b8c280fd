package dev.quiver.arrowjava;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The record batches the stream tests pass around, the same in Java and in C ({@code record_batches.h}):
 * struct&lt;i: int32, s: utf8&gt;, batch b, row r holding i = 1000 * b + r (null when r % 5 == 3) and
 * s = "b&lt;b&gt;r&lt;r&gt;"; optionally a third, dictionary-encoded column d (utf8 over int32 indices) holding
 * "even" or "odd" by row. Real Arrow Java readers of them come from Arrow's IPC stream format.
 */
final class RecordBatches {
    static final long DICTIONARY_ID = 42;

    private RecordBatches() {}

    static int value(int batch, int row) {
        return 1000 * batch + row;
    }

    static boolean isNull(int row) {
        return row % 5 == 3;
    }

    static String text(int batch, int row) {
        return "b" + batch + "r" + row;
    }

    /** @return the rows of a batch in Quiver's Java mapping (a struct row per row) */
    static List<Object> rows(int batch, int rows, boolean withDictionary) {
        List<Object> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("i", isNull(r) ? null : (long) value(batch, r));
            row.put("s", text(batch, r));
            if (withDictionary) {
                row.put("d", r % 2 == 0 ? "even" : "odd");
            }
            out.add(row);
        }
        return out;
    }

    static long sum(int batches, int rows) {
        long sum = 0;
        for (int b = 0; b < batches; b++) {
            for (int r = 0; r < rows; r++) {
                sum += isNull(r) ? 0 : value(b, r);
            }
        }
        return sum;
    }

    static long nulls(int batches, int rows) {
        long nulls = 0;
        for (int r = 0; r < rows; r++) {
            nulls += isNull(r) ? batches : 0;
        }
        return nulls;
    }

    static long bytes(int batches, int rows) {
        long bytes = 0;
        for (int b = 0; b < batches; b++) {
            for (int r = 0; r < rows; r++) {
                bytes += text(b, r).length();
            }
        }
        return bytes;
    }

    /**
     * @return a reader over {@code batches} batches of {@code rows} rows, written to and read back from Arrow's
     *         IPC stream format; the caller closes it (or hands it to the bridge)
     */
    static ArrowReader ipcReader(BufferAllocator allocator, int batches, int rows, boolean withDictionary) {
        return new ArrowStreamReader(new ByteArrayInputStream(ipcBytes(allocator, batches, rows, withDictionary)), allocator);
    }

    private static byte[] ipcBytes(BufferAllocator allocator, int batches, int rows, boolean withDictionary) {
        List<Field> fields = new ArrayList<>(List.of(Field.nullable("i", new ArrowType.Int(32, true)), Field.nullable("s", ArrowType.Utf8.INSTANCE)));
        DictionaryEncoding encoding = new DictionaryEncoding(DICTIONARY_ID, false, new ArrowType.Int(32, true));
        if (withDictionary) {
            fields.add(new Field("d", new FieldType(true, new ArrowType.Int(32, true), encoding), null));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
             VarCharVector words = new VarCharVector("words", allocator);
             DictionaryProvider.MapDictionaryProvider dictionaries = new DictionaryProvider.MapDictionaryProvider()) {
            words.allocateNew();
            words.setSafe(0, "even".getBytes(StandardCharsets.UTF_8));
            words.setSafe(1, "odd".getBytes(StandardCharsets.UTF_8));
            words.setValueCount(2);
            if (withDictionary) {
                VarCharVector transferred = new VarCharVector("words", allocator);
                words.makeTransferPair(transferred).transfer();
                dictionaries.put(new Dictionary(transferred, encoding));
            }
            try (ArrowStreamWriter writer = new ArrowStreamWriter(root, dictionaries, out)) {
                writer.start();
                for (int b = 0; b < batches; b++) {
                    fill(root, b, rows);
                    writer.writeBatch();
                }
                writer.end();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Fills a root of this schema with batch {@code batch}. */
    static void fill(VectorSchemaRoot root, int batch, int rows) {
        IntVector ints = (IntVector) root.getVector("i");
        VarCharVector strings = (VarCharVector) root.getVector("s");
        ints.allocateNew(rows);
        strings.allocateNew(rows);
        IntVector indices = (IntVector) root.getVector("d");
        if (indices != null) {
            indices.allocateNew(rows);
        }
        for (int r = 0; r < rows; r++) {
            if (!isNull(r)) {
                ints.set(r, value(batch, r));
            }
            strings.setSafe(r, text(batch, r).getBytes(StandardCharsets.UTF_8));
            if (indices != null) {
                indices.set(r, r % 2);
            }
        }
        root.setRowCount(rows);
    }
}
