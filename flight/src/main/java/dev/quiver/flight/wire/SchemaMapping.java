package dev.quiver.flight.wire;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.IntervalUnit;
import dev.quiver.type.Metadata;
import dev.quiver.type.TimeUnit;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Quiver fields and the IPC schema, both ways, through Arrow Java's schema objects ({@code pojo}: no vectors,
 * no buffers), which write and read the {@code Schema} flatbuffer. A dictionary-encoded field gets the id of
 * its position among the encoded fields in pre-order (0, 1, 2, ...), the order {@link BodyLayout} meets them.
 * Stateless; any thread.
 */
final class SchemaMapping {
    private SchemaMapping() {}

    /**
     * @param batch a struct field: its children become the schema's fields, its metadata the schema's
     * @return the schema, dictionary ids in pre-order
     * @throws IllegalArgumentException if the field is not a struct, or a dictionary's values are encoded again
     */
    static Schema toArrowJava(Field batch) {
        if (!(batch.type() instanceof ArrowType.Struct)) {
            throw new IllegalArgumentException("a batch is a struct array, not " + batch.type().format());
        }
        long[] nextId = {0};
        List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
        for (Field child : batch.children()) {
            fields.add(toArrowJava(child, nextId, false));
        }
        return new Schema(fields, metadata(batch.metadata()));
    }

    private static org.apache.arrow.vector.types.pojo.Field toArrowJava(Field field, long[] nextId, boolean inDictionary) {
        Field.DictionaryEncoding dictionary = field.dictionary();
        if (dictionary != null && inDictionary) {
            throw new IllegalArgumentException("field " + field.name() + " is dictionary-encoded inside a dictionary's values,"
                    + " which this codec does not write");
        }
        Field described = dictionary == null ? field : dictionary.values();
        DictionaryEncoding encoding = null;
        if (dictionary != null) {
            ArrowType.Int index = (ArrowType.Int) field.type();
            encoding = new DictionaryEncoding(nextId[0]++, dictionary.ordered(),
                    new org.apache.arrow.vector.types.pojo.ArrowType.Int(index.bitWidth(), index.signed()));
        }
        List<org.apache.arrow.vector.types.pojo.Field> children = new ArrayList<>();
        for (Field child : described.children()) {
            children.add(toArrowJava(child, nextId, inDictionary || dictionary != null));
        }
        return new org.apache.arrow.vector.types.pojo.Field(field.name(),
                new FieldType(field.nullable(), type(described.type()), encoding, metadata(field.metadata())), children);
    }

    /**
     * @param schema a schema that arrived, already bounded in depth and size (see {@link HeaderReading})
     * @return a struct field named {@code ""} with the schema's fields and metadata; a dictionary-encoded
     *         field's values field has the field's name, value type, nullability and children
     * @throws IllegalArgumentException if a type cannot be taken (the message names the field)
     */
    static Field toQuiver(Schema schema) {
        List<Field> children = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field field : schema.getFields()) {
            children.add(toQuiver(field));
        }
        return new Field("", new ArrowType.Struct(), false, children, metadata(schema.getCustomMetadata()), null);
    }

    private static Field toQuiver(org.apache.arrow.vector.types.pojo.Field field) {
        List<Field> children = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field child : field.getChildren()) {
            children.add(toQuiver(child));
        }
        ArrowType type;
        try {
            type = type(field.getType(), field.getChildren().size());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field " + field.getName() + ": " + e.getMessage(), e);
        }
        Metadata metadata = metadata(field.getMetadata());
        DictionaryEncoding encoding = field.getDictionary();
        if (encoding == null) {
            return new Field(field.getName(), type, field.isNullable(), children, metadata, null);
        }
        org.apache.arrow.vector.types.pojo.ArrowType.Int index = encoding.getIndexType();
        ArrowType.Int indexType = index == null ? new ArrowType.Int(32, true) : new ArrowType.Int(index.getBitWidth(), index.getIsSigned());
        Field values = new Field(field.getName(), type, field.isNullable(), children, Metadata.EMPTY, null);
        return new Field(field.getName(), indexType, field.isNullable(), List.of(), metadata,
                new Field.DictionaryEncoding(values, encoding.isOrdered()));
    }

    private static Map<String, String> metadata(Metadata metadata) {
        if (metadata.isEmpty()) {
            return null;
        }
        Map<String, String> map = new LinkedHashMap<>();
        metadata.entries().forEach(e -> map.put(e.keyString(), e.valueString()));
        return map;
    }

    private static Metadata metadata(Map<String, String> map) {
        return map == null || map.isEmpty() ? Metadata.EMPTY : Metadata.of(map);
    }

    private static org.apache.arrow.vector.types.pojo.ArrowType type(ArrowType type) {
        return switch (type) {
            case ArrowType.Null n -> org.apache.arrow.vector.types.pojo.ArrowType.Null.INSTANCE;
            case ArrowType.Bool b -> org.apache.arrow.vector.types.pojo.ArrowType.Bool.INSTANCE;
            case ArrowType.Int i -> new org.apache.arrow.vector.types.pojo.ArrowType.Int(i.bitWidth(), i.signed());
            case ArrowType.FloatingPoint f -> new org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint(switch (f.bitWidth()) {
                case 16 -> FloatingPointPrecision.HALF;
                case 32 -> FloatingPointPrecision.SINGLE;
                default -> FloatingPointPrecision.DOUBLE;
            });
            case ArrowType.Decimal d -> new org.apache.arrow.vector.types.pojo.ArrowType.Decimal(d.precision(), d.scale(), d.bitWidth());
            case ArrowType.FixedSizeBinary w -> new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeBinary(w.byteWidth());
            case ArrowType.Binary b -> org.apache.arrow.vector.types.pojo.ArrowType.Binary.INSTANCE;
            case ArrowType.LargeBinary b -> org.apache.arrow.vector.types.pojo.ArrowType.LargeBinary.INSTANCE;
            case ArrowType.BinaryView b -> org.apache.arrow.vector.types.pojo.ArrowType.BinaryView.INSTANCE;
            case ArrowType.Utf8 s -> org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE;
            case ArrowType.LargeUtf8 s -> org.apache.arrow.vector.types.pojo.ArrowType.LargeUtf8.INSTANCE;
            case ArrowType.Utf8View s -> org.apache.arrow.vector.types.pojo.ArrowType.Utf8View.INSTANCE;
            case ArrowType.Date d -> new org.apache.arrow.vector.types.pojo.ArrowType.Date(
                    d.unit() == ArrowType.DateUnit.DAY ? DateUnit.DAY : DateUnit.MILLISECOND);
            case ArrowType.Time t -> new org.apache.arrow.vector.types.pojo.ArrowType.Time(unit(t.unit()), t.bitWidth());
            case ArrowType.Timestamp t -> new org.apache.arrow.vector.types.pojo.ArrowType.Timestamp(unit(t.unit()),
                    t.timezone().isEmpty() ? null : t.timezone());
            case ArrowType.Duration d -> new org.apache.arrow.vector.types.pojo.ArrowType.Duration(unit(d.unit()));
            case ArrowType.Interval i -> new org.apache.arrow.vector.types.pojo.ArrowType.Interval(
                    org.apache.arrow.vector.types.IntervalUnit.valueOf(i.unit().name()));
            case ArrowType.ListType l -> org.apache.arrow.vector.types.pojo.ArrowType.List.INSTANCE;
            case ArrowType.LargeList l -> org.apache.arrow.vector.types.pojo.ArrowType.LargeList.INSTANCE;
            case ArrowType.FixedSizeList l -> new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList(l.listSize());
            case ArrowType.ListView l -> org.apache.arrow.vector.types.pojo.ArrowType.ListView.INSTANCE;
            case ArrowType.LargeListView l -> org.apache.arrow.vector.types.pojo.ArrowType.LargeListView.INSTANCE;
            case ArrowType.Struct s -> org.apache.arrow.vector.types.pojo.ArrowType.Struct.INSTANCE;
            case ArrowType.MapType m -> new org.apache.arrow.vector.types.pojo.ArrowType.Map(m.keysSorted());
            case ArrowType.Union u -> new org.apache.arrow.vector.types.pojo.ArrowType.Union(
                    u.mode() == ArrowType.UnionMode.DENSE ? UnionMode.Dense : UnionMode.Sparse,
                    u.typeIds().stream().mapToInt(Integer::intValue).toArray());
            case ArrowType.RunEndEncoded r -> org.apache.arrow.vector.types.pojo.ArrowType.RunEndEncoded.INSTANCE;
        };
    }

    private static ArrowType type(org.apache.arrow.vector.types.pojo.ArrowType type, int childCount) {
        return switch (type) {
            case org.apache.arrow.vector.types.pojo.ArrowType.Null n -> new ArrowType.Null();
            case org.apache.arrow.vector.types.pojo.ArrowType.Bool b -> new ArrowType.Bool();
            case org.apache.arrow.vector.types.pojo.ArrowType.Int i -> new ArrowType.Int(i.getBitWidth(), i.getIsSigned());
            case org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint f -> new ArrowType.FloatingPoint(switch (f.getPrecision()) {
                case HALF -> 16;
                case SINGLE -> 32;
                case DOUBLE -> 64;
            });
            case org.apache.arrow.vector.types.pojo.ArrowType.Decimal d -> new ArrowType.Decimal(d.getPrecision(), d.getScale(), d.getBitWidth());
            case org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeBinary w -> new ArrowType.FixedSizeBinary(w.getByteWidth());
            case org.apache.arrow.vector.types.pojo.ArrowType.Binary b -> new ArrowType.Binary();
            case org.apache.arrow.vector.types.pojo.ArrowType.LargeBinary b -> new ArrowType.LargeBinary();
            case org.apache.arrow.vector.types.pojo.ArrowType.BinaryView b -> new ArrowType.BinaryView();
            case org.apache.arrow.vector.types.pojo.ArrowType.Utf8 s -> new ArrowType.Utf8();
            case org.apache.arrow.vector.types.pojo.ArrowType.LargeUtf8 s -> new ArrowType.LargeUtf8();
            case org.apache.arrow.vector.types.pojo.ArrowType.Utf8View s -> new ArrowType.Utf8View();
            case org.apache.arrow.vector.types.pojo.ArrowType.Date d ->
                    d.getUnit() == DateUnit.DAY ? ArrowType.Date.days() : ArrowType.Date.milliseconds();
            case org.apache.arrow.vector.types.pojo.ArrowType.Time t -> time(t);
            case org.apache.arrow.vector.types.pojo.ArrowType.Timestamp t -> new ArrowType.Timestamp(unit(t.getUnit()),
                    t.getTimezone() == null ? "" : t.getTimezone());
            case org.apache.arrow.vector.types.pojo.ArrowType.Duration d -> new ArrowType.Duration(unit(d.getUnit()));
            case org.apache.arrow.vector.types.pojo.ArrowType.Interval i -> new ArrowType.Interval(IntervalUnit.valueOf(i.getUnit().name()));
            case org.apache.arrow.vector.types.pojo.ArrowType.List l -> new ArrowType.ListType();
            case org.apache.arrow.vector.types.pojo.ArrowType.LargeList l -> new ArrowType.LargeList();
            case org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList l -> new ArrowType.FixedSizeList(l.getListSize());
            case org.apache.arrow.vector.types.pojo.ArrowType.ListView l -> new ArrowType.ListView();
            case org.apache.arrow.vector.types.pojo.ArrowType.LargeListView l -> new ArrowType.LargeListView();
            case org.apache.arrow.vector.types.pojo.ArrowType.Struct s -> new ArrowType.Struct();
            case org.apache.arrow.vector.types.pojo.ArrowType.Map m -> new ArrowType.MapType(m.getKeysSorted());
            case org.apache.arrow.vector.types.pojo.ArrowType.Union u -> new ArrowType.Union(
                    u.getMode() == UnionMode.Dense ? ArrowType.UnionMode.DENSE : ArrowType.UnionMode.SPARSE,
                    u.getTypeIds() == null ? IntStream.range(0, childCount).boxed().toList() : Arrays.stream(u.getTypeIds()).boxed().toList());
            case org.apache.arrow.vector.types.pojo.ArrowType.RunEndEncoded r -> new ArrowType.RunEndEncoded();
            default -> throw new IllegalArgumentException("type " + type + " has no Quiver type");
        };
    }

    private static ArrowType.Time time(org.apache.arrow.vector.types.pojo.ArrowType.Time t) {
        ArrowType.Time time = new ArrowType.Time(unit(t.getUnit()));
        if (time.bitWidth() != t.getBitWidth()) {
            throw new IllegalArgumentException("a time in " + t.getUnit() + " is " + time.bitWidth() + " bits wide, not " + t.getBitWidth());
        }
        return time;
    }

    private static org.apache.arrow.vector.types.TimeUnit unit(TimeUnit unit) {
        return org.apache.arrow.vector.types.TimeUnit.valueOf(unit.name());
    }

    private static TimeUnit unit(org.apache.arrow.vector.types.TimeUnit unit) {
        return TimeUnit.valueOf(unit.name());
    }
}
