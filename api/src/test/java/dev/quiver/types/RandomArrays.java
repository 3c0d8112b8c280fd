package dev.quiver.types;

import dev.quiver.host.HostVector;
import dev.quiver.host.IntervalDayTime;
import dev.quiver.host.IntervalMonthDayNano;
import dev.quiver.host.UnionValue;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.IntervalUnit;
import dev.quiver.type.TimeUnit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random schemas (nesting up to a depth) and random values for them, from one seed. Not thread-safe. */
final class RandomArrays {
    private final Random random;
    private int names;

    RandomArrays(long seed) {
        this.random = new Random(seed);
    }

    Random random() {
        return random;
    }

    /** A random vector with up to {@code maxLength} values of a random field nested up to {@code depth}. */
    HostVector vector(int depth, int maxLength) {
        Field field = field(depth);
        int length = random.nextInt(maxLength + 1);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            values.add(value(field));
        }
        return HostVector.of(field, values);
    }

    Field field(int depth) {
        String name = "f" + names++;
        boolean nullable = random.nextInt(4) != 0;
        if (depth <= 0 || random.nextInt(3) == 0) {
            Field leaf = Field.of(name, leafType(), nullable);
            if (random.nextInt(8) == 0) {
                ArrowType.Int index = new ArrowType.Int(8 << random.nextInt(4), random.nextBoolean());
                return Field.of(name, index, nullable).withDictionary(
                        new Field.DictionaryEncoding(Field.of("values", hashableType(), true), random.nextBoolean()));
            }
            return leaf;
        }
        return switch (random.nextInt(10)) {
            case 0 -> Field.of(name, new ArrowType.ListType(), nullable, List.of(field(depth - 1)));
            case 1 -> Field.of(name, new ArrowType.LargeList(), nullable, List.of(field(depth - 1)));
            case 2 -> Field.of(name, new ArrowType.FixedSizeList(random.nextInt(4)), nullable, List.of(field(depth - 1)));
            case 3 -> Field.of(name, new ArrowType.ListView(), nullable, List.of(field(depth - 1)));
            case 4 -> Field.of(name, new ArrowType.LargeListView(), nullable, List.of(field(depth - 1)));
            case 5 -> Field.of(name, new ArrowType.MapType(random.nextBoolean()), nullable, List.of(Field.of("entries", new ArrowType.Struct(), false,
                    List.of(Field.of("key", hashableType(), false), field(depth - 1)))));
            case 6, 7 -> {
                List<Field> ids = new ArrayList<>();
                for (int k = 1 + random.nextInt(3); k > 0; k--) {
                    ids.add(field(depth - 1));
                }
                yield Field.of(name, new ArrowType.Struct(), nullable, ids);
            }
            case 8 -> {
                List<Field> members = new ArrayList<>();
                List<Integer> typeIds = new ArrayList<>();
                for (int k = 1 + random.nextInt(3); k > 0; k--) {
                    members.add(field(depth - 1));
                    int id;
                    do {
                        id = random.nextInt(128);
                    } while (typeIds.contains(id));
                    typeIds.add(id);
                }
                ArrowType.UnionMode mode = random.nextBoolean() ? ArrowType.UnionMode.DENSE : ArrowType.UnionMode.SPARSE;
                yield Field.of(name, new ArrowType.Union(mode, typeIds), false, members);
            }
            default -> Field.of(name, new ArrowType.RunEndEncoded(), false, List.of(
                    Field.of("run_ends", new ArrowType.Int(16 << random.nextInt(3), true), false), Field.of("values", hashableType(), true)));
        };
    }

    private ArrowType leafType() {
        TimeUnit unit = TimeUnit.values()[random.nextInt(4)];
        return switch (random.nextInt(22)) {
            case 0 -> new ArrowType.Null();
            case 1 -> new ArrowType.Bool();
            case 2, 3 -> new ArrowType.Int(8 << random.nextInt(4), random.nextBoolean());
            case 4 -> new ArrowType.FloatingPoint(16 << random.nextInt(3));
            case 5 -> {
                int bits = 32 << random.nextInt(4);
                int max = bits == 32 ? 9 : bits == 64 ? 18 : bits == 128 ? 38 : 76;
                int precision = 1 + random.nextInt(max);
                yield new ArrowType.Decimal(precision, random.nextInt(precision + 3) - 2, bits);
            }
            case 6 -> new ArrowType.FixedSizeBinary(random.nextInt(20));
            case 7 -> new ArrowType.Binary();
            case 8 -> new ArrowType.LargeBinary();
            case 9 -> new ArrowType.BinaryView();
            case 10, 11 -> new ArrowType.Utf8();
            case 12 -> new ArrowType.LargeUtf8();
            case 13 -> new ArrowType.Utf8View();
            case 14 -> random.nextBoolean() ? ArrowType.Date.days() : ArrowType.Date.milliseconds();
            case 15 -> new ArrowType.Time(unit);
            case 16 -> new ArrowType.Timestamp(unit, random.nextBoolean() ? "" : "UTC");
            case 17 -> new ArrowType.Duration(unit);
            case 18 -> new ArrowType.Interval(IntervalUnit.values()[random.nextInt(3)]);
            default -> new ArrowType.Int(64, true);
        };
    }

    private ArrowType hashableType() {
        return switch (random.nextInt(3)) {
            case 0 -> new ArrowType.Utf8();
            case 1 -> new ArrowType.Int(32, true);
            default -> new ArrowType.Binary();
        };
    }

    Object value(Field field) {
        if (field.nullable() && random.nextInt(5) == 0 && !(field.type() instanceof ArrowType.Union)
                && !(field.type() instanceof ArrowType.RunEndEncoded)) {
            return null;
        }
        if (field.dictionary() != null) {
            return small(field.dictionary().values().type());
        }
        ArrowType type = field.type();
        return switch (type) {
            case ArrowType.Null t -> null;
            case ArrowType.Bool t -> random.nextBoolean();
            case ArrowType.Int t -> normalise(t, random.nextLong());
            case ArrowType.FloatingPoint t -> switch (t.bitWidth()) {
                case 16 -> (double) Float.float16ToFloat((short) random.nextInt());
                case 32 -> (double) Float.intBitsToFloat(random.nextInt());
                default -> random.nextInt(10) == 0 ? Double.NaN : random.nextGaussian() * 1e6;
            };
            case ArrowType.Decimal t -> new BigDecimal(new BigInteger(random.nextInt(t.precision() * 3) + 1, random)
                    .mod(BigInteger.TEN.pow(t.precision())).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), t.scale());
            case ArrowType.FixedSizeBinary t -> bytes(t.byteWidth());
            case ArrowType.Binary t -> bytes(random.nextInt(20));
            case ArrowType.LargeBinary t -> bytes(random.nextInt(20));
            case ArrowType.BinaryView t -> bytes(random.nextInt(40));
            case ArrowType.Utf8 t -> text(random.nextInt(12));
            case ArrowType.LargeUtf8 t -> text(random.nextInt(12));
            case ArrowType.Utf8View t -> text(random.nextInt(30));
            case ArrowType.Date t -> t.unit() == ArrowType.DateUnit.DAY ? (long) random.nextInt() : random.nextLong();
            case ArrowType.Time t -> t.bitWidth() == 32 ? (long) random.nextInt(86_400_000) : random.nextLong() & 0xFFFFFFFFFFFFL;
            case ArrowType.Timestamp t -> random.nextLong();
            case ArrowType.Duration t -> random.nextLong();
            case ArrowType.Interval t -> switch (t.unit()) {
                case YEAR_MONTH -> (long) random.nextInt();
                case DAY_TIME -> new IntervalDayTime(random.nextInt(), random.nextInt());
                case MONTH_DAY_NANO -> new IntervalMonthDayNano(random.nextInt(), random.nextInt(), random.nextLong());
            };
            case ArrowType.ListType t -> list(field.children().getFirst(), random.nextInt(4));
            case ArrowType.LargeList t -> list(field.children().getFirst(), random.nextInt(4));
            case ArrowType.ListView t -> list(field.children().getFirst(), random.nextInt(4));
            case ArrowType.LargeListView t -> list(field.children().getFirst(), random.nextInt(4));
            case ArrowType.FixedSizeList t -> list(field.children().getFirst(), t.listSize());
            case ArrowType.MapType t -> {
                List<Object> entries = new ArrayList<>();
                Field entry = field.children().getFirst();
                for (int k = random.nextInt(3); k > 0; k--) {
                    entries.add(new AbstractMap.SimpleImmutableEntry<>(small(entry.children().get(0).type()), value(entry.children().get(1))));
                }
                yield entries;
            }
            case ArrowType.Struct t -> {
                Map<String, Object> row = new LinkedHashMap<>();
                for (Field member : field.children()) {
                    row.put(member.name(), value(member));
                }
                yield row;
            }
            case ArrowType.Union t -> {
                int k = random.nextInt(t.typeIds().size());
                yield new UnionValue(t.typeIds().get(k), value(field.children().get(k)));
            }
            case ArrowType.RunEndEncoded t -> {
                Field values = field.children().get(1);
                yield random.nextInt(4) == 0 ? null : small(values.type());
            }
        };
    }

    /** Values from a small pool, so that dictionaries and runs repeat. */
    private Object small(ArrowType type) {
        int pick = random.nextInt(4);
        return switch (type) {
            case ArrowType.Utf8 t -> "v" + pick;
            case ArrowType.Int t -> (long) pick;
            default -> ByteBuffer.wrap(new byte[] {(byte) pick, 1}).asReadOnlyBuffer();
        };
    }

    private List<Object> list(Field element, int size) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            out.add(value(element));
        }
        return out;
    }

    private ByteBuffer bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return ByteBuffer.wrap(b).asReadOnlyBuffer();
    }

    private String text(int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int pick = random.nextInt(10);
            s.append(pick == 0 ? "é" : pick == 1 ? "日" : pick == 2 ? "😀" : String.valueOf((char) ('a' + random.nextInt(26))));
        }
        return s.toString();
    }

    private static long normalise(ArrowType.Int type, long v) {
        return switch (type.bitWidth()) {
            case 8 -> type.signed() ? (byte) v : v & 0xFF;
            case 16 -> type.signed() ? (short) v : v & 0xFFFF;
            case 32 -> type.signed() ? (int) v : v & 0xFFFF_FFFFL;
            default -> v;
        };
    }
}
