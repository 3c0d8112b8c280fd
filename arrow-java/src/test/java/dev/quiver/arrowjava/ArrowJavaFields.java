package dev.quiver.arrowjava;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The test's own mapping of a Quiver field to the Arrow Java field of the same type, written from the two type
 * models (not through the bridge), so that the bridge's results can be checked against it.
 */
final class ArrowJavaFields {
    private ArrowJavaFields() {}

    /**
     * @param field         a Quiver field
     * @param dictionaryIds hands out dictionary ids, in depth-first order
     * @return the Arrow Java field, in the form Arrow Java's vectors carry it (for a dictionary-encoded field:
     *         the index type with the encoding; the dictionary's own field is mapped separately)
     */
    static org.apache.arrow.vector.types.pojo.Field of(Field field, AtomicLong dictionaryIds) {
        Map<String, String> metadata = field.metadata().isEmpty() ? null : field.metadata().toMap();
        if (field.dictionary() != null) {
            ArrowType.Int index = (ArrowType.Int) field.type();
            org.apache.arrow.vector.types.pojo.ArrowType.Int indexType =
                    new org.apache.arrow.vector.types.pojo.ArrowType.Int(index.bitWidth(), index.signed());
            DictionaryEncoding encoding = new DictionaryEncoding(dictionaryIds.getAndIncrement(), field.dictionary().ordered(), indexType);
            return new org.apache.arrow.vector.types.pojo.Field(field.name(), new FieldType(field.nullable(), indexType, encoding, metadata), List.of());
        }
        List<org.apache.arrow.vector.types.pojo.Field> children = field.children().stream().map(c -> of(c, dictionaryIds)).toList();
        return new org.apache.arrow.vector.types.pojo.Field(field.name(), new FieldType(field.nullable(), type(field.type()), null, metadata), children);
    }

    static org.apache.arrow.vector.types.pojo.ArrowType type(ArrowType type) {
        if (type instanceof ArrowType.Null) {
            return org.apache.arrow.vector.types.pojo.ArrowType.Null.INSTANCE;
        } else if (type instanceof ArrowType.Bool) {
            return org.apache.arrow.vector.types.pojo.ArrowType.Bool.INSTANCE;
        } else if (type instanceof ArrowType.Int t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Int(t.bitWidth(), t.signed());
        } else if (type instanceof ArrowType.FloatingPoint t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint(switch (t.bitWidth()) {
                case 16 -> FloatingPointPrecision.HALF;
                case 32 -> FloatingPointPrecision.SINGLE;
                default -> FloatingPointPrecision.DOUBLE;
            });
        } else if (type instanceof ArrowType.Decimal t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Decimal(t.precision(), t.scale(), t.bitWidth());
        } else if (type instanceof ArrowType.FixedSizeBinary t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeBinary(t.byteWidth());
        } else if (type instanceof ArrowType.Binary) {
            return org.apache.arrow.vector.types.pojo.ArrowType.Binary.INSTANCE;
        } else if (type instanceof ArrowType.LargeBinary) {
            return org.apache.arrow.vector.types.pojo.ArrowType.LargeBinary.INSTANCE;
        } else if (type instanceof ArrowType.BinaryView) {
            return org.apache.arrow.vector.types.pojo.ArrowType.BinaryView.INSTANCE;
        } else if (type instanceof ArrowType.Utf8) {
            return org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE;
        } else if (type instanceof ArrowType.LargeUtf8) {
            return org.apache.arrow.vector.types.pojo.ArrowType.LargeUtf8.INSTANCE;
        } else if (type instanceof ArrowType.Utf8View) {
            return org.apache.arrow.vector.types.pojo.ArrowType.Utf8View.INSTANCE;
        } else if (type instanceof ArrowType.Date t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Date(t.unit() == ArrowType.DateUnit.DAY ? DateUnit.DAY : DateUnit.MILLISECOND);
        } else if (type instanceof ArrowType.Time t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Time(unit(t.unit()), t.bitWidth());
        } else if (type instanceof ArrowType.Timestamp t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Timestamp(unit(t.unit()), t.timezone().isEmpty() ? null : t.timezone());
        } else if (type instanceof ArrowType.Duration t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Duration(unit(t.unit()));
        } else if (type instanceof ArrowType.Interval t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Interval(switch (t.unit()) {
                case YEAR_MONTH -> IntervalUnit.YEAR_MONTH;
                case DAY_TIME -> IntervalUnit.DAY_TIME;
                case MONTH_DAY_NANO -> IntervalUnit.MONTH_DAY_NANO;
            });
        } else if (type instanceof ArrowType.ListType) {
            return org.apache.arrow.vector.types.pojo.ArrowType.List.INSTANCE;
        } else if (type instanceof ArrowType.LargeList) {
            return org.apache.arrow.vector.types.pojo.ArrowType.LargeList.INSTANCE;
        } else if (type instanceof ArrowType.FixedSizeList t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList(t.listSize());
        } else if (type instanceof ArrowType.ListView) {
            return org.apache.arrow.vector.types.pojo.ArrowType.ListView.INSTANCE;
        } else if (type instanceof ArrowType.LargeListView) {
            return org.apache.arrow.vector.types.pojo.ArrowType.LargeListView.INSTANCE;
        } else if (type instanceof ArrowType.Struct) {
            return org.apache.arrow.vector.types.pojo.ArrowType.Struct.INSTANCE;
        } else if (type instanceof ArrowType.MapType t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Map(t.keysSorted());
        } else if (type instanceof ArrowType.Union t) {
            return new org.apache.arrow.vector.types.pojo.ArrowType.Union(t.mode() == ArrowType.UnionMode.DENSE ? UnionMode.Dense : UnionMode.Sparse,
                    t.typeIds().stream().mapToInt(Integer::intValue).toArray());
        } else if (type instanceof ArrowType.RunEndEncoded) {
            return org.apache.arrow.vector.types.pojo.ArrowType.RunEndEncoded.INSTANCE;
        }
        throw new IllegalArgumentException("no Arrow Java type for " + type.format());
    }

    private static TimeUnit unit(dev.quiver.type.TimeUnit unit) {
        return switch (unit) {
            case SECOND -> TimeUnit.SECOND;
            case MILLISECOND -> TimeUnit.MILLISECOND;
            case MICROSECOND -> TimeUnit.MICROSECOND;
            case NANOSECOND -> TimeUnit.NANOSECOND;
        };
    }
}
