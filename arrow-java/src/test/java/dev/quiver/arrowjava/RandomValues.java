package dev.quiver.arrowjava;

import dev.quiver.host.IntervalDayTime;
import dev.quiver.host.IntervalMonthDayNano;
import dev.quiver.host.UnionValue;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Random values of any field in Quiver's Java mapping (see {@code dev.quiver.host.HostVector}), from a fixed
 * seed: about one in five null where the field is nullable, strings with multi-byte characters, byte strings
 * both shorter and longer than a view's 12 inline bytes, lists of 0 to 4 elements, runs of 1 to 4 equal values
 * for run-end encoding, and a small pool of values for dictionaries so that indices repeat.
 */
public final class RandomValues {
    private static final String[] PIECES = {"a", "b", "é", "日本", "z", "🙂", "longer piece ", "x"};
    private static final long DAY_MILLIS = 86_400_000L;

    private final Random random;

    public RandomValues(long seed) {
        this.random = new Random(seed);
    }

    /**
     * @param field the field
     * @param count how many values
     * @return {@code count} values of the field
     */
    public List<Object> of(Field field, int count) {
        if (field.dictionary() != null) {
            List<Object> pool = new ArrayList<>(of(nonNull(field.dictionary().values()), 1 + random.nextInt(5)));
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                out.add(field.nullable() && random.nextInt(5) == 0 ? null : pool.get(random.nextInt(pool.size())));
            }
            return out;
        }
        if (field.type() instanceof ArrowType.RunEndEncoded) {
            List<Object> out = new ArrayList<>();
            while (out.size() < count) {
                Object value = of(field.children().get(1), 1).getFirst();
                out.addAll(Collections.nCopies(Math.min(count - out.size(), 1 + random.nextInt(4)), value));
            }
            return out;
        }
        if (field.type() instanceof ArrowType.MapType) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                out.add(field.nullable() && random.nextInt(5) == 0 ? null : entries(field, random.nextInt(5)));
            }
            return out;
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(one(field));
        }
        return out;
    }

    private Object one(Field field) {
        ArrowType type = field.type();
        if (type instanceof ArrowType.Union union) {
            int k = random.nextInt(union.typeIds().size());
            return new UnionValue(union.typeIds().get(k), one(field.children().get(k)));
        }
        if (type instanceof ArrowType.Null || (field.nullable() && random.nextInt(5) == 0)) {
            return null;
        }
        if (type instanceof ArrowType.Bool) {
            return random.nextBoolean();
        } else if (type instanceof ArrowType.Int t) {
            long bits = random.nextLong();
            return t.bitWidth() == 64 ? bits : t.signed() ? bits >> (64 - t.bitWidth()) : bits >>> (64 - t.bitWidth());
        } else if (type instanceof ArrowType.FloatingPoint t) {
            double v = (random.nextDouble() - 0.5) * 2000;
            return switch (t.bitWidth()) {
                case 16 -> (double) Float.float16ToFloat(Float.floatToFloat16((float) v));
                case 32 -> (double) (float) v;
                default -> v;
            };
        } else if (type instanceof ArrowType.Decimal t) {
            BigInteger unscaled = new BigInteger(t.precision() * 4, random).mod(BigInteger.TEN.pow(t.precision()));
            return new BigDecimal(random.nextBoolean() ? unscaled.negate() : unscaled, t.scale());
        } else if (type instanceof ArrowType.FixedSizeBinary t) {
            return bytes(t.byteWidth());
        } else if (type instanceof ArrowType.Binary || type instanceof ArrowType.LargeBinary || type instanceof ArrowType.BinaryView) {
            return bytes(random.nextInt(30));
        } else if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8 || type instanceof ArrowType.Utf8View) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(6); n > 0; n--) {
                s.append(PIECES[random.nextInt(PIECES.length)]);
            }
            return s.toString();
        } else if (type instanceof ArrowType.Date t) {
            long days = random.nextInt(40_000) - 10_000;
            return t.unit() == ArrowType.DateUnit.DAY ? days : days * DAY_MILLIS;
        } else if (type instanceof ArrowType.Time t) {
            return switch (t.unit()) {
                case SECOND -> (long) random.nextInt(86_400);
                case MILLISECOND -> (long) random.nextInt(86_400_000);
                case MICROSECOND -> Math.floorMod(random.nextLong(), 86_400_000_000L);
                case NANOSECOND -> Math.floorMod(random.nextLong(), 86_400_000_000_000L);
            };
        } else if (type instanceof ArrowType.Timestamp || type instanceof ArrowType.Duration) {
            return random.nextLong() >> 8;
        } else if (type instanceof ArrowType.Interval t) {
            return switch (t.unit()) {
                case YEAR_MONTH -> (long) random.nextInt();
                case DAY_TIME -> new IntervalDayTime(random.nextInt(), random.nextInt());
                case MONTH_DAY_NANO -> new IntervalMonthDayNano(random.nextInt(), random.nextInt(), random.nextLong());
            };
        } else if (type instanceof ArrowType.FixedSizeList t) {
            return of(field.children().getFirst(), t.listSize());
        } else if (type instanceof ArrowType.ListType || type instanceof ArrowType.LargeList
                || type instanceof ArrowType.ListView || type instanceof ArrowType.LargeListView) {
            return of(field.children().getFirst(), random.nextInt(5));
        } else if (type instanceof ArrowType.Struct) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (Field member : field.children()) {
                row.put(member.name(), of(member, 1).getFirst());
            }
            return row;
        }
        throw new IllegalArgumentException("no random values for " + type.format());
    }

    private List<Map.Entry<Object, Object>> entries(Field map, int count) {
        Field entries = map.children().getFirst();
        Set<Object> keys = new HashSet<>();
        List<Map.Entry<Object, Object>> out = new ArrayList<>();
        while (out.size() < count) {
            Object key = of(entries.children().get(0), 1).getFirst();
            if (keys.add(key)) {
                out.add(new AbstractMap.SimpleImmutableEntry<>(key, of(entries.children().get(1), 1).getFirst()));
            }
        }
        if (((ArrowType.MapType) map.type()).keysSorted()) {
            out.sort((a, b) -> Long.compare(((Number) a.getKey()).longValue(), ((Number) b.getKey()).longValue()));
        }
        return out;
    }

    private static Field nonNull(Field field) {
        return new Field(field.name(), field.type(), false, field.children(), field.metadata(), field.dictionary());
    }

    private ByteBuffer bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return ByteBuffer.wrap(b).asReadOnlyBuffer();
    }
}
