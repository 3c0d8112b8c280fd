package dev.quiver.arrowjava;

import dev.quiver.host.IntervalDayTime;
import dev.quiver.host.IntervalMonthDayNano;
import dev.quiver.host.UnionValue;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds real Arrow Java vectors from values in Quiver's Java mapping, with Arrow Java's own setters (list
 * views with their rows laid out in reverse, so offsets are not monotonic; dictionaries from the distinct
 * values, registered in a provider).
 */
final class VectorFiller {
    private final BufferAllocator allocator;
    private final DictionaryProvider.MapDictionaryProvider dictionaries;
    private final AtomicLong dictionaryIds = new AtomicLong();

    /**
     * @param allocator    allocates every vector
     * @param dictionaries receives the dictionaries the filler makes; the caller closes it
     */
    VectorFiller(BufferAllocator allocator, DictionaryProvider.MapDictionaryProvider dictionaries) {
        this.allocator = allocator;
        this.dictionaries = dictionaries;
    }

    /**
     * @param field  the Quiver field
     * @param values its values
     * @return a new vector of the field's Arrow Java type holding the values; the caller closes it
     */
    FieldVector create(Field field, List<Object> values) {
        FieldVector vector = ArrowJavaFields.of(field, dictionaryIds).createVector(allocator);
        try {
            fill(vector, field, values);
            return vector;
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
    }

    private void fill(FieldVector vector, Field field, List<Object> values) {
        int n = values.size();
        DictionaryEncoding encoding = vector.getField().getDictionary();
        if (encoding != null) {
            encode((BaseIntVector) vector, encoding, field, values);
        } else if (vector instanceof StructVector v) {
            v.allocateNew();
            for (int k = 0; k < field.children().size(); k++) {
                String name = field.children().get(k).name();
                fill(v.getChildrenFromFields().get(k), field.children().get(k),
                        values.stream().<Object>map(row -> row == null ? null : ((Map<?, ?>) row).get(name)).toList());
            }
            for (int i = 0; i < n; i++) {
                if (values.get(i) == null) {
                    v.setNull(i);
                } else {
                    v.setIndexDefined(i);
                }
            }
        } else if (vector instanceof ListVector v) {
            v.allocateNew();
            fillLists(v.getDataVector(), field, values, v::setNull, (i, size) -> {
                v.startNewValue(i);
                v.endValue(i, size);
            });
        } else if (vector instanceof LargeListVector v) {
            v.allocateNew();
            fillLists(v.getDataVector(), field, values, v::setNull, (i, size) -> {
                v.startNewValue(i);
                v.endValue(i, size);
            });
        } else if (vector instanceof FixedSizeListVector v) {
            v.allocateNew();
            List<Object> flat = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                List<?> row = (List<?>) values.get(i);
                if (row == null) {
                    v.setNull(i);
                    flat.addAll(Collections.nCopies(v.getListSize(), null));
                } else {
                    v.setNotNull(i);
                    flat.addAll(row);
                }
            }
            fill(v.getDataVector(), field.children().getFirst(), flat);
        } else if (vector instanceof ListViewVector v) {
            v.allocateNew();
            fillListViews(v.getDataVector(), field, values, (i, offset, size, valid) -> {
                v.setOffset(i, offset);
                v.setSize(i, size);
                v.setValidity(i, valid);
            });
        } else if (vector instanceof LargeListViewVector v) {
            v.allocateNew();
            fillListViews(v.getDataVector(), field, values, (i, offset, size, valid) -> {
                v.setOffset(i, offset);
                v.setSize(i, size);
                v.setValidity(i, valid);
            });
        } else if (vector instanceof UnionVector v) {
            v.allocateNew();
            List<List<Object>> columns = unionColumns(field, n);
            for (int i = 0; i < n; i++) {
                UnionValue value = unionValue(field, values.get(i));
                v.getTypeBuffer().setByte(i, value.typeId());
                columns.get(memberIndex(field, value.typeId())).set(i, value.value());
            }
            for (int k = 0; k < columns.size(); k++) {
                fill(v.getChildrenFromFields().get(k), field.children().get(k), columns.get(k));
            }
        } else if (vector instanceof DenseUnionVector v) {
            v.allocateNew();
            List<List<Object>> columns = unionColumns(field, 0);
            for (int i = 0; i < n; i++) {
                UnionValue value = unionValue(field, values.get(i));
                List<Object> column = columns.get(memberIndex(field, value.typeId()));
                v.setTypeId(i, (byte) value.typeId());
                v.setOffset(i, column.size());
                column.add(value.value());
            }
            for (int k = 0; k < columns.size(); k++) {
                fill(v.getChildrenFromFields().get(k), field.children().get(k), columns.get(k));
            }
        } else if (vector instanceof RunEndEncodedVector v) {
            List<Object> ends = new ArrayList<>();
            List<Object> runs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (i == 0 || !Objects.equals(values.get(i), values.get(i - 1))) {
                    runs.add(values.get(i));
                    ends.add(null);
                }
                ends.set(ends.size() - 1, (long) i + 1);
            }
            fill(v.getRunEndsVector(), field.children().get(0), ends);
            fill(v.getValuesVector(), field.children().get(1), runs);
        } else if (vector instanceof NullVector) {
            // a null array has no buffers: its length is all there is
        } else {
            vector.allocateNew();
            for (int i = 0; i < n; i++) {
                if (values.get(i) != null) {
                    set(vector, i, values.get(i));
                }
            }
        }
        vector.setValueCount(n);
    }

    /** Writes one list slot of a list or large list vector. */
    private interface ListSlot {
        void set(int index, int size);
    }

    /** Writes one slot of a list view or large list view vector. */
    private interface ViewSlot {
        void set(int index, int offset, int size, int valid);
    }

    private void fillLists(FieldVector elements, Field field, List<Object> values, java.util.function.IntConsumer setNull, ListSlot slot) {
        List<Object> flat = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            List<?> row = rowOf(field, values.get(i));
            if (row == null) {
                setNull.accept(i);
            } else {
                slot.set(i, row.size());
                flat.addAll(row);
            }
        }
        fill(elements, field.children().getFirst(), flat);
    }

    /** Lays the rows out in reverse, so that offsets go down as the index goes up. */
    private void fillListViews(FieldVector elements, Field field, List<Object> values, ViewSlot slot) {
        List<Object> flat = new ArrayList<>();
        int[] offsets = new int[values.size()];
        for (int i = values.size() - 1; i >= 0; i--) {
            offsets[i] = flat.size();
            if (values.get(i) != null) {
                flat.addAll((List<?>) values.get(i));
            }
        }
        fill(elements, field.children().getFirst(), flat);
        for (int i = 0; i < values.size(); i++) {
            List<?> row = (List<?>) values.get(i);
            slot.set(i, row == null ? 0 : offsets[i], row == null ? 0 : row.size(), row == null ? 0 : 1);
        }
    }

    /** A map's rows as lists of entry structs (key, value), as its entries child holds them. */
    private static List<?> rowOf(Field field, Object row) {
        if (!(field.type() instanceof ArrowType.MapType) || row == null) {
            return (List<?>) row;
        }
        Field entries = field.children().getFirst();
        List<Object> out = new ArrayList<>();
        for (Object e : (List<?>) row) {
            Map.Entry<?, ?> entry = (Map.Entry<?, ?>) e;
            Map<String, Object> struct = new LinkedHashMap<>();
            struct.put(entries.children().get(0).name(), entry.getKey());
            struct.put(entries.children().get(1).name(), entry.getValue());
            out.add(struct);
        }
        return out;
    }

    private static List<List<Object>> unionColumns(Field field, int n) {
        List<List<Object>> columns = new ArrayList<>();
        for (int k = 0; k < field.children().size(); k++) {
            columns.add(new ArrayList<>(Collections.nCopies(n, null)));
        }
        return columns;
    }

    /** A union has no validity: a slot under a null parent holds a null of its first member. */
    private static UnionValue unionValue(Field field, Object value) {
        return value == null ? new UnionValue(((ArrowType.Union) field.type()).typeIds().getFirst(), null) : (UnionValue) value;
    }

    private static int memberIndex(Field field, int typeId) {
        return ((ArrowType.Union) field.type()).typeIds().indexOf(typeId);
    }

    private void encode(BaseIntVector indices, DictionaryEncoding encoding, Field field, List<Object> values) {
        List<Object> distinct = values.stream().filter(Objects::nonNull).distinct().toList();
        FieldVector dictionary = ArrowJavaFields.of(field.dictionary().values(), dictionaryIds).createVector(allocator);
        dictionaries.put(new Dictionary(dictionary, encoding));
        fill(dictionary, field.dictionary().values(), distinct);
        indices.allocateNew();
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) != null) {
                indices.setWithPossibleTruncate(i, distinct.indexOf(values.get(i)));
            }
        }
    }

    private static void set(FieldVector vector, int i, Object value) {
        if (vector instanceof BitVector v) {
            v.setSafe(i, (Boolean) value ? 1 : 0);
        } else if (vector instanceof TinyIntVector v) {
            v.setSafe(i, (byte) (long) (Long) value);
        } else if (vector instanceof SmallIntVector v) {
            v.setSafe(i, (short) (long) (Long) value);
        } else if (vector instanceof IntVector v) {
            v.setSafe(i, (int) (long) (Long) value);
        } else if (vector instanceof BigIntVector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof UInt1Vector v) {
            v.setSafe(i, (int) (long) (Long) value);
        } else if (vector instanceof UInt2Vector v) {
            v.setSafe(i, (int) (long) (Long) value);
        } else if (vector instanceof UInt4Vector v) {
            v.setSafe(i, (int) (long) (Long) value);
        } else if (vector instanceof UInt8Vector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof Float2Vector v) {
            v.setSafe(i, Float.floatToFloat16((float) (double) (Double) value));
        } else if (vector instanceof Float4Vector v) {
            v.setSafe(i, (float) (double) (Double) value);
        } else if (vector instanceof Float8Vector v) {
            v.setSafe(i, (Double) value);
        } else if (vector instanceof DecimalVector v) {
            v.setSafe(i, (BigDecimal) value);
        } else if (vector instanceof Decimal256Vector v) {
            v.setSafe(i, (BigDecimal) value);
        } else if (vector instanceof FixedSizeBinaryVector v) {
            v.setSafe(i, bytes(value));
        } else if (vector instanceof BaseVariableWidthVector v) {
            v.setSafe(i, bytes(value));
        } else if (vector instanceof BaseLargeVariableWidthVector v) {
            v.setSafe(i, bytes(value));
        } else if (vector instanceof BaseVariableWidthViewVector v) {
            v.setSafe(i, bytes(value));
        } else if (vector instanceof DateDayVector v) {
            v.setSafe(i, Math.toIntExact((Long) value));
        } else if (vector instanceof DateMilliVector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof TimeSecVector v) {
            v.setSafe(i, Math.toIntExact((Long) value));
        } else if (vector instanceof TimeMilliVector v) {
            v.setSafe(i, Math.toIntExact((Long) value));
        } else if (vector instanceof TimeMicroVector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof TimeNanoVector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof TimeStampVector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof DurationVector v) {
            v.setSafe(i, (Long) value);
        } else if (vector instanceof IntervalYearVector v) {
            v.setSafe(i, Math.toIntExact((Long) value));
        } else if (vector instanceof IntervalDayVector v) {
            IntervalDayTime interval = (IntervalDayTime) value;
            v.setSafe(i, interval.days(), interval.milliseconds());
        } else if (vector instanceof IntervalMonthDayNanoVector v) {
            IntervalMonthDayNano interval = (IntervalMonthDayNano) value;
            v.setSafe(i, interval.months(), interval.days(), interval.nanoseconds());
        } else {
            throw new IllegalArgumentException("no setter for " + vector.getClass().getSimpleName()
                    + (vector instanceof BaseFixedWidthVector ? " (fixed width)" : ""));
        }
    }

    private static byte[] bytes(Object value) {
        if (value instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        ByteBuffer buffer = ((ByteBuffer) value).duplicate();
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }
}
