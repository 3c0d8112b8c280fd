package dev.quiver.types;

import dev.quiver.host.HostVector;
import dev.quiver.host.IntervalDayTime;
import dev.quiver.host.IntervalMonthDayNano;
import dev.quiver.host.UnionValue;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.IntervalUnit;
import dev.quiver.type.Metadata;
import dev.quiver.type.TimeUnit;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One sample array of every type of the C Data Interface, each with nulls where the type has them. Public
 * for the conformance checker's tests, which put each sample through the checker. Immutable samples; any
 * thread.
 */
public final class TypeCatalogue {
    private TypeCatalogue() {}

    /**
     * One sample.
     *
     * @param name   the type's name, for test reports
     * @param vector the sample array
     */
    public record Sample(String name, HostVector vector) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** @return a new list of every sample */
    public static List<Sample> all() {
        List<Sample> out = new ArrayList<>();
        out.add(sample("null", Field.of("n", new ArrowType.Null(), true), null, null, null));
        out.add(sample("bool", leaf(new ArrowType.Bool()), true, null, false, true, true, false, false, true, true));
        for (int bits : new int[] {8, 16, 32, 64}) {
            long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
            out.add(sample("int" + bits, leaf(new ArrowType.Int(bits, true)), -max - 1, null, max, 0L));
            long umax = bits == 64 ? -1L : (1L << bits) - 1;
            out.add(sample("uint" + bits, leaf(new ArrowType.Int(bits, false)), umax, null, 1L));
        }
        out.add(sample("float16", leaf(new ArrowType.FloatingPoint(16)), 1.5, null, -65504.0, 0.0009765625));
        out.add(sample("float32", leaf(new ArrowType.FloatingPoint(32)), 1.25, null, (double) Float.MAX_VALUE));
        out.add(sample("float64", leaf(new ArrowType.FloatingPoint(64)), Math.E, null, Double.NaN, -0.0, Double.NEGATIVE_INFINITY));
        out.add(sample("decimal32", leaf(new ArrowType.Decimal(9, 2, 32)), new BigDecimal("1234567.89"), null, new BigDecimal("-0.01")));
        out.add(sample("decimal64", leaf(new ArrowType.Decimal(18, 4, 64)), new BigDecimal("-12345678901234.5678"), null));
        out.add(sample("decimal128", leaf(new ArrowType.Decimal(38, 10, 128)), new BigDecimal("-1234567890123456789012345678.0123456789"), null, BigDecimal.ZERO.setScale(10)));
        out.add(sample("decimal256", leaf(new ArrowType.Decimal(76, -3, 256)), new BigDecimal(new java.math.BigInteger("9".repeat(76)), -3), null));
        out.add(sample("fixed_size_binary", leaf(new ArrowType.FixedSizeBinary(3)), bytes(1, 2, 3), null, bytes(255, 0, 7)));
        out.add(sample("binary", leaf(new ArrowType.Binary()), bytes(1), null, bytes(), bytes(9, 9, 9, 9)));
        out.add(sample("large_binary", leaf(new ArrowType.LargeBinary()), bytes(1, 2), null, bytes()));
        out.add(sample("binary_view", leaf(new ArrowType.BinaryView()), bytes(1, 2), null, longBytes(40), bytes(), longBytes(1500), longBytes(13)));
        out.add(sample("utf8", leaf(new ArrowType.Utf8()), "héllo", null, "", "日本語"));
        out.add(sample("large_utf8", leaf(new ArrowType.LargeUtf8()), "a", null, "ü".repeat(20)));
        out.add(sample("utf8_view", leaf(new ArrowType.Utf8View()), "short", null, "a string longer than twelve", "", "ü".repeat(700), "exactly12byt"));
        out.add(sample("date32", leaf(ArrowType.Date.days()), 19000L, null, -1L));
        out.add(sample("date64", leaf(ArrowType.Date.milliseconds()), 1_700_000_000_000L, null));
        for (TimeUnit unit : TimeUnit.values()) {
            out.add(sample("time_" + unit, leaf(new ArrowType.Time(unit)), 3600L, null, 0L));
            out.add(sample("timestamp_" + unit, leaf(new ArrowType.Timestamp(unit, "Europe/Paris")), 1_700_000_000L, null));
            out.add(sample("duration_" + unit, leaf(new ArrowType.Duration(unit)), -5L, null, Long.MAX_VALUE));
        }
        out.add(sample("timestamp_no_zone", leaf(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "")), 1L, null));
        out.add(sample("interval_months", leaf(new ArrowType.Interval(IntervalUnit.YEAR_MONTH)), 14L, null, -3L));
        out.add(sample("interval_day_time", leaf(new ArrowType.Interval(IntervalUnit.DAY_TIME)), new IntervalDayTime(2, 3000), null));
        out.add(sample("interval_month_day_nano", leaf(new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO)),
                new IntervalMonthDayNano(1, -2, 3_000_000_000L), null));
        Field int32 = Field.of("item", new ArrowType.Int(32, true), true);
        out.add(sample("list", Field.of("l", new ArrowType.ListType(), true, List.of(int32)), List.of(1L, 2L), null, List.of(), Arrays.asList(3L, null)));
        out.add(sample("large_list", Field.of("l", new ArrowType.LargeList(), true, List.of(int32)), List.of(1L), null, List.of(4L, 5L, 6L)));
        out.add(sample("fixed_size_list", Field.of("l", new ArrowType.FixedSizeList(2), true, List.of(int32)), List.of(1L, 2L), null, Arrays.asList(null, 6L)));
        out.add(sample("list_view", Field.of("l", new ArrowType.ListView(), true, List.of(int32)), List.of(1L, 2L), null, List.of(), List.of(7L)));
        out.add(sample("large_list_view", Field.of("l", new ArrowType.LargeListView(), true, List.of(int32)), List.of(9L), null, List.of(1L, 2L, 3L)));
        Field point = Field.of("p", new ArrowType.Struct(), true, List.of(Field.of("x", new ArrowType.FloatingPoint(64), true),
                Field.of("label", new ArrowType.Utf8(), true)));
        out.add(sample("struct", point, row("x", 1.0, "label", "a"), null, row("x", null, "label", "b")));
        Field entries = Field.of("entries", new ArrowType.Struct(), false, List.of(Field.of("key", new ArrowType.Utf8(), false),
                Field.of("value", new ArrowType.Int(64, true), true)));
        out.add(sample("map", Field.of("m", new ArrowType.MapType(false), true, List.of(entries)),
                List.of(entry("a", 1L), entry("b", null)), null, List.of()));
        out.add(sample("map_keys_sorted", Field.of("m", new ArrowType.MapType(true), true, List.of(entries)), List.of(entry("a", 1L), entry("z", 2L))));
        List<Field> members = List.of(Field.of("i", new ArrowType.Int(32, true), true), Field.of("s", new ArrowType.Utf8(), true));
        out.add(sample("sparse_union", Field.of("u", new ArrowType.Union(ArrowType.UnionMode.SPARSE, List.of(3, 7)), false, members),
                new UnionValue(3, 10L), new UnionValue(7, "x"), new UnionValue(7, null), new UnionValue(3, -1L)));
        out.add(sample("dense_union", Field.of("u", new ArrowType.Union(ArrowType.UnionMode.DENSE, List.of(0, 1)), false, members),
                new UnionValue(1, "y"), new UnionValue(0, 5L), new UnionValue(1, "z"), new UnionValue(0, null)));
        Field runEnds = Field.of("run_ends", new ArrowType.Int(32, true), false);
        out.add(sample("run_end_encoded", Field.of("r", new ArrowType.RunEndEncoded(), false, List.of(runEnds, Field.of("values", new ArrowType.Utf8(), true))),
                "a", "a", "a", null, null, "b", "a"));
        Field dictionary = Field.of("d", new ArrowType.Int(16, true), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("values", new ArrowType.Utf8(), true), false));
        out.add(sample("dictionary", dictionary, "red", "green", null, "red", "blue", "green"));
        Field ordered = Field.of("d", new ArrowType.Int(8, false), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("values", new ArrowType.Int(64, true), true), true));
        out.add(sample("dictionary_ordered_uint8", ordered, 5L, 6L, 5L, null));
        Field extension = Field.of("uuid", new ArrowType.FixedSizeBinary(16), true)
                .withMetadata(Metadata.of(List.of(
                        new Metadata.Entry(Metadata.EXTENSION_NAME.getBytes(StandardCharsets.UTF_8), "arrow.uuid".getBytes(StandardCharsets.UTF_8)),
                        new Metadata.Entry(Metadata.EXTENSION_METADATA.getBytes(StandardCharsets.UTF_8), new byte[0]),
                        new Metadata.Entry("dup".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xff}),
                        new Metadata.Entry("dup".getBytes(StandardCharsets.UTF_8), "second".getBytes(StandardCharsets.UTF_8)))));
        out.add(sample("extension_with_metadata", extension, longBytes(16), null));
        return out;
    }

    private static Sample sample(String name, Field field, Object... values) {
        return new Sample(name, HostVector.of(field, Arrays.asList(values)));
    }

    private static Field leaf(ArrowType type) {
        return Field.of("v", type, true);
    }

    static ByteBuffer bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return ByteBuffer.wrap(b).asReadOnlyBuffer();
    }

    private static ByteBuffer longBytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 1);
        }
        return ByteBuffer.wrap(b).asReadOnlyBuffer();
    }

    private static Map<String, Object> row(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put(k1, v1);
        row.put(k2, v2);
        return row;
    }

    private static Map.Entry<Object, Object> entry(Object key, Object value) {
        return new AbstractMap.SimpleImmutableEntry<>(key, value);
    }
}
