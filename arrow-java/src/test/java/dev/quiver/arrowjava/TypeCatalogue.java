package dev.quiver.arrowjava;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.IntervalUnit;
import dev.quiver.type.Metadata;
import dev.quiver.type.TimeUnit;
import org.apache.arrow.vector.types.Types.MinorType;

import java.util.ArrayList;
import java.util.List;

/**
 * Every type Arrow Java 19 has a vector for, as Quiver fields: integers of every width and sign, the three
 * float widths, 128- and 256-bit decimals, every binary and string layout, dates, times, timestamps with and
 * without zone, durations, intervals, every list layout, struct, map, sparse and dense union, run-end encoded,
 * dictionary-encoded, and nestings of them. (Arrow Java has no vectors for 32- and 64-bit decimals.)
 */
public final class TypeCatalogue {
    private TypeCatalogue() {}

    public static List<Field> everyType() {
        List<Field> out = new ArrayList<>();
        out.add(leaf("null", new ArrowType.Null()));
        out.add(leaf("bool", new ArrowType.Bool()));
        for (int bits : new int[] {8, 16, 32, 64}) {
            out.add(leaf("int" + bits, new ArrowType.Int(bits, true)));
            out.add(leaf("uint" + bits, new ArrowType.Int(bits, false)));
        }
        for (int bits : new int[] {16, 32, 64}) {
            out.add(leaf("float" + bits, new ArrowType.FloatingPoint(bits)));
        }
        out.add(leaf("decimal128_38_10", new ArrowType.Decimal(38, 10, 128)));
        out.add(leaf("decimal128_5_2", new ArrowType.Decimal(5, 2, 128)));
        out.add(leaf("decimal256_76_20", new ArrowType.Decimal(76, 20, 256)));
        out.add(leaf("fixed_size_binary_7", new ArrowType.FixedSizeBinary(7)));
        out.add(leaf("binary", new ArrowType.Binary()));
        out.add(leaf("large_binary", new ArrowType.LargeBinary()));
        out.add(leaf("binary_view", new ArrowType.BinaryView()));
        out.add(leaf("utf8", new ArrowType.Utf8()));
        out.add(leaf("large_utf8", new ArrowType.LargeUtf8()));
        out.add(leaf("utf8_view", new ArrowType.Utf8View()));
        out.add(leaf("date32", ArrowType.Date.days()));
        out.add(leaf("date64", ArrowType.Date.milliseconds()));
        for (TimeUnit unit : TimeUnit.values()) {
            String u = unit.name().toLowerCase();
            out.add(leaf("time_" + u, new ArrowType.Time(unit)));
            out.add(leaf("timestamp_" + u, new ArrowType.Timestamp(unit, "")));
            out.add(leaf("timestamp_" + u + "_utc", new ArrowType.Timestamp(unit, "UTC")));
            out.add(leaf("duration_" + u, new ArrowType.Duration(unit)));
        }
        out.add(leaf("timestamp_micro_paris", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Paris")));
        out.add(leaf("timestamp_second_offset", new ArrowType.Timestamp(TimeUnit.SECOND, "+07:30")));
        for (IntervalUnit unit : IntervalUnit.values()) {
            out.add(leaf("interval_" + unit.name().toLowerCase(), new ArrowType.Interval(unit)));
        }
        out.add(Field.of("list_int32", new ArrowType.ListType(), true, List.of(leaf("item", new ArrowType.Int(32, true)))));
        out.add(Field.of("large_list_utf8", new ArrowType.LargeList(), true, List.of(leaf("item", new ArrowType.Utf8()))));
        out.add(Field.of("fixed_size_list_float64_3", new ArrowType.FixedSizeList(3), true, List.of(leaf("item", new ArrowType.FloatingPoint(64)))));
        out.add(Field.of("list_view_int16", new ArrowType.ListView(), true, List.of(leaf("item", new ArrowType.Int(16, true)))));
        out.add(Field.of("large_list_view_utf8", new ArrowType.LargeListView(), true, List.of(leaf("item", new ArrowType.Utf8()))));
        out.add(Field.struct("struct", true, List.of(leaf("a", new ArrowType.Int(32, true)), leaf("b", new ArrowType.Utf8()),
                Field.of("c", new ArrowType.ListType(), true, List.of(leaf("item", new ArrowType.Bool()))))));
        out.add(map("map_utf8_int64", false, new ArrowType.Utf8(), new ArrowType.Int(64, true)));
        out.add(map("map_sorted_int32_float32", true, new ArrowType.Int(32, true), new ArrowType.FloatingPoint(32)));
        // Arrow Java's sparse UnionVector names each member by its minor type's ordinal: use those ids.
        out.add(Field.of("sparse_union", new ArrowType.Union(ArrowType.UnionMode.SPARSE,
                        List.of(MinorType.INT.ordinal(), MinorType.VARCHAR.ordinal(), MinorType.FLOAT8.ordinal())), true,
                List.of(leaf("i", new ArrowType.Int(32, true)), leaf("s", new ArrowType.Utf8()), leaf("f", new ArrowType.FloatingPoint(64)))));
        // Type ids in ascending order: Arrow Java's DenseUnionVector exports its schema children sorted by id but its
        // array children in declaration order (see ArrowJavaQuirksTest).
        out.add(Field.of("dense_union", new ArrowType.Union(ArrowType.UnionMode.DENSE, List.of(2, 5, 9)), true,
                List.of(leaf("i", new ArrowType.Int(32, true)), leaf("s", new ArrowType.Utf8()), leaf("f", new ArrowType.FloatingPoint(64)))));
        for (int bits : new int[] {16, 32, 64}) {
            out.add(Field.of("run_end_encoded_" + bits, new ArrowType.RunEndEncoded(), true, List.of(
                    Field.of("run_ends", new ArrowType.Int(bits, true), false), leaf("values", new ArrowType.Utf8()))));
        }
        out.add(dictionary("dictionary_utf8_int32", new ArrowType.Int(32, true), leaf("values", new ArrowType.Utf8()), false));
        out.add(dictionary("dictionary_int64_uint8_ordered", new ArrowType.Int(8, false), leaf("values", new ArrowType.Int(64, true)), true));
        out.add(dictionary("dictionary_binary_int16", new ArrowType.Int(16, true), leaf("values", new ArrowType.Binary()), false));
        out.add(Field.of("list_of_struct", new ArrowType.ListType(), true, List.of(Field.struct("item", true, List.of(
                leaf("x", new ArrowType.Int(64, true)),
                Field.of("y", new ArrowType.LargeList(), true, List.of(leaf("item", new ArrowType.Utf8View()))))))));
        out.add(Field.struct("struct_of_everything_nested", true, List.of(
                map("m", false, new ArrowType.Utf8(), new ArrowType.Decimal(10, 3, 128)),
                Field.of("u", new ArrowType.Union(ArrowType.UnionMode.DENSE, List.of(0, 1)), true,
                        List.of(leaf("d", ArrowType.Date.days()), leaf("b", new ArrowType.BinaryView()))),
                dictionary("e", new ArrowType.Int(32, true), leaf("values", new ArrowType.Utf8()), false),
                Field.of("fl", new ArrowType.FixedSizeList(2), true, List.of(
                        Field.of("item", new ArrowType.ListView(), true, List.of(leaf("item", new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO)))))))));
        out.add(Field.of("list_of_dictionary", new ArrowType.ListType(), true,
                List.of(dictionary("item", new ArrowType.Int(32, true), leaf("values", new ArrowType.LargeUtf8()), false))));
        out.add(leaf("with_metadata", new ArrowType.Int(32, true)).withMetadata(Metadata.of(java.util.Map.of("unit", "metres", "source", "sensor-7"))));
        return out;
    }

    /**
     * @param field a field
     * @return the field as Arrow Java keeps it, for comparisons: its list vectors name their element
     *         {@code $data$} whatever the schema said, and metadata (a map in Arrow Java) is in key order
     */
    public static Field asArrowJavaKeepsIt(Field field) {
        ArrowType type = field.type();
        boolean list = type instanceof ArrowType.ListType || type instanceof ArrowType.LargeList || type instanceof ArrowType.FixedSizeList
                || type instanceof ArrowType.ListView || type instanceof ArrowType.LargeListView;
        List<Field> children = new ArrayList<>();
        for (Field child : field.children()) {
            Field renamed = asArrowJavaKeepsIt(child);
            children.add(list ? new Field("$data$", renamed.type(), renamed.nullable(), renamed.children(), renamed.metadata(), renamed.dictionary()) : renamed);
        }
        Field.DictionaryEncoding dictionary = field.dictionary() == null ? null
                : new Field.DictionaryEncoding(asArrowJavaKeepsIt(field.dictionary().values()), field.dictionary().ordered());
        Metadata metadata = Metadata.of(field.metadata().entries().stream()
                .sorted(java.util.Comparator.comparing(Metadata.Entry::keyString)).toList());
        return new Field(field.name(), type, field.nullable(), children, metadata, dictionary);
    }

    static Field leaf(String name, ArrowType type) {
        return Field.of(name, type, true);
    }

    static Field map(String name, boolean keysSorted, ArrowType key, ArrowType value) {
        Field entries = Field.struct("entries", false, List.of(Field.of("key", key, false), leaf("value", value)));
        return Field.of(name, new ArrowType.MapType(keysSorted), true, List.of(entries));
    }

    static Field dictionary(String name, ArrowType.Int index, Field values, boolean ordered) {
        return new Field(name, index, true, List.of(), Metadata.EMPTY, new Field.DictionaryEncoding(values, ordered));
    }
}
