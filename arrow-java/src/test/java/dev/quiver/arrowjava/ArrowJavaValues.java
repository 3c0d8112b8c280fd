package dev.quiver.arrowjava;

import dev.quiver.host.IntervalDayTime;
import dev.quiver.host.IntervalMonthDayNano;
import dev.quiver.host.UnionValue;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
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
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.holders.NullableIntervalDayHolder;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Arrow Java vectors into Quiver's Java mapping (see {@code dev.quiver.host.HostVector}), one vector
 * class at a time from Arrow Java's own accessors: what the bridge's results are compared against.
 */
final class ArrowJavaValues {
    private final DictionaryProvider dictionaries;

    /** @param dictionaries where dictionary-encoded vectors find their dictionaries, or null if there are none */
    ArrowJavaValues(DictionaryProvider dictionaries) {
        this.dictionaries = dictionaries;
    }

    /**
     * @param vector a vector
     * @return all its values, dictionary and run-end encodings decoded
     */
    List<Object> values(ValueVector vector) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < vector.getValueCount(); i++) {
            out.add(get(vector, i));
        }
        return out;
    }

    Object get(ValueVector vector, int i) {
        DictionaryEncoding encoding = vector.getField().getDictionary();
        if (encoding != null) {
            if (vector.isNull(i)) {
                return null;
            }
            Dictionary dictionary = dictionaries.lookup(encoding.getId());
            return get(dictionary.getVector(), Math.toIntExact(((BaseIntVector) vector).getValueAsLong(i)));
        }
        if (vector instanceof UnionVector v) {
            int typeId = v.getTypeValue(i);
            return new UnionValue(typeId, get(v.getVectorByType(typeId), i));
        }
        if (vector instanceof DenseUnionVector v) {
            byte typeId = v.getTypeId(i);
            return new UnionValue(typeId, get(v.getVectorByType(typeId), v.getOffset(i)));
        }
        if (vector instanceof RunEndEncodedVector v) {
            return get(v.getValuesVector(), physicalIndex((BaseIntVector) v.getRunEndsVector(), i));
        }
        if (vector instanceof ExtensionTypeVector<?> v) {
            return get(v.getUnderlyingVector(), i);
        }
        if (vector instanceof NullVector || vector.isNull(i)) {
            return null;
        }
        return value(vector, i);
    }

    private Object value(ValueVector vector, int i) {
        if (vector instanceof BitVector v) {
            return v.get(i) != 0;
        } else if (vector instanceof TinyIntVector v) {
            return (long) v.get(i);
        } else if (vector instanceof SmallIntVector v) {
            return (long) v.get(i);
        } else if (vector instanceof IntVector v) {
            return (long) v.get(i);
        } else if (vector instanceof BigIntVector v) {
            return v.get(i);
        } else if (vector instanceof UInt1Vector v) {
            return Byte.toUnsignedLong(v.get(i));
        } else if (vector instanceof UInt2Vector v) {
            return (long) v.get(i);
        } else if (vector instanceof UInt4Vector v) {
            return Integer.toUnsignedLong(v.get(i));
        } else if (vector instanceof UInt8Vector v) {
            return v.get(i);
        } else if (vector instanceof Float2Vector v) {
            return (double) Float.float16ToFloat(v.get(i));
        } else if (vector instanceof Float4Vector v) {
            return (double) v.get(i);
        } else if (vector instanceof Float8Vector v) {
            return v.get(i);
        } else if (vector instanceof DecimalVector v) {
            return v.getObject(i);
        } else if (vector instanceof Decimal256Vector v) {
            return v.getObject(i);
        } else if (vector instanceof FixedSizeBinaryVector v) {
            return bytes(v.get(i));
        } else if (vector instanceof VarBinaryVector v) {
            return bytes(v.get(i));
        } else if (vector instanceof LargeVarBinaryVector v) {
            return bytes(v.get(i));
        } else if (vector instanceof ViewVarBinaryVector v) {
            return bytes(v.get(i));
        } else if (vector instanceof VarCharVector v) {
            return new String(v.get(i), StandardCharsets.UTF_8);
        } else if (vector instanceof LargeVarCharVector v) {
            return new String(v.get(i), StandardCharsets.UTF_8);
        } else if (vector instanceof ViewVarCharVector v) {
            return new String(v.get(i), StandardCharsets.UTF_8);
        } else if (vector instanceof DateDayVector v) {
            return (long) v.get(i);
        } else if (vector instanceof DateMilliVector v) {
            return v.get(i);
        } else if (vector instanceof TimeSecVector v) {
            return (long) v.get(i);
        } else if (vector instanceof TimeMilliVector v) {
            return (long) v.get(i);
        } else if (vector instanceof TimeMicroVector v) {
            return v.get(i);
        } else if (vector instanceof TimeNanoVector v) {
            return v.get(i);
        } else if (vector instanceof TimeStampVector v) {
            return v.get(i);
        } else if (vector instanceof DurationVector v) {
            return DurationVector.get(v.getDataBuffer(), i);
        } else if (vector instanceof IntervalYearVector v) {
            return (long) v.get(i);
        } else if (vector instanceof IntervalDayVector v) {
            NullableIntervalDayHolder holder = new NullableIntervalDayHolder();
            v.get(i, holder);
            return new IntervalDayTime(holder.days, holder.milliseconds);
        } else if (vector instanceof IntervalMonthDayNanoVector v) {
            NullableIntervalMonthDayNanoHolder holder = new NullableIntervalMonthDayNanoHolder();
            v.get(i, holder);
            return new IntervalMonthDayNano(holder.months, holder.days, holder.nanoseconds);
        } else if (vector instanceof MapVector v) {
            StructVector entries = (StructVector) v.getDataVector();
            List<Object> out = new ArrayList<>();
            for (int j = v.getElementStartIndex(i); j < v.getElementEndIndex(i); j++) {
                out.add(new AbstractMap.SimpleImmutableEntry<>(get(entries.getChildByOrdinal(0), j), get(entries.getChildByOrdinal(1), j)));
            }
            return out;
        } else if (vector instanceof ListVector v) {
            return range(v.getDataVector(), v.getElementStartIndex(i), v.getElementEndIndex(i));
        } else if (vector instanceof LargeListVector v) {
            return range(v.getDataVector(), v.getElementStartIndex(i), v.getElementEndIndex(i));
        } else if (vector instanceof FixedSizeListVector v) {
            return range(v.getDataVector(), (long) i * v.getListSize(), (long) (i + 1) * v.getListSize());
        } else if (vector instanceof ListViewVector v) {
            int start = v.getOffsetBuffer().getInt((long) i * Integer.BYTES);
            return range(v.getDataVector(), start, start + v.getSizeBuffer().getInt((long) i * Integer.BYTES));
        } else if (vector instanceof LargeListViewVector v) {
            long start = v.getOffsetBuffer().getLong((long) i * Long.BYTES);
            return range(v.getDataVector(), start, start + v.getSizeBuffer().getLong((long) i * Long.BYTES));
        } else if (vector instanceof StructVector v) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (FieldVector member : v.getChildrenFromFields()) {
                row.put(member.getName(), get(member, i));
            }
            return row;
        }
        throw new IllegalArgumentException("no reader for " + vector.getClass().getSimpleName());
    }

    private List<Object> range(ValueVector elements, long start, long end) {
        List<Object> out = new ArrayList<>();
        for (long j = start; j < end; j++) {
            out.add(get(elements, Math.toIntExact(j)));
        }
        return out;
    }

    private static int physicalIndex(BaseIntVector runEnds, int logical) {
        int run = 0;
        while (runEnds.getValueAsLong(run) <= logical) {
            run++;
        }
        return run;
    }

    private static ByteBuffer bytes(byte[] b) {
        return ByteBuffer.wrap(b).asReadOnlyBuffer();
    }
}
