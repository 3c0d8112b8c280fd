package dev.quiver.type;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses and writes the format strings of the Arrow C Data Interface, for every type the specification
 * defines. Dictionary encoding is not part of a format string (it is the schema's {@code dictionary}).
 * Stateless; thread-safe.
 */
public final class FormatString {

    /**
     * {@return its type}
     * @param format a format string, for example {@code "i"}, {@code "tsu:UTC"} or {@code "+ud:0,1"}
     * @throws IllegalArgumentException naming the format if it is unknown or malformed
     */
    public static ArrowType parse(String format) {
        switch (format) {
            case "n": return new ArrowType.Null();
            case "b": return new ArrowType.Bool();
            case "c": return new ArrowType.Int(8, true);
            case "C": return new ArrowType.Int(8, false);
            case "s": return new ArrowType.Int(16, true);
            case "S": return new ArrowType.Int(16, false);
            case "i": return new ArrowType.Int(32, true);
            case "I": return new ArrowType.Int(32, false);
            case "l": return new ArrowType.Int(64, true);
            case "L": return new ArrowType.Int(64, false);
            case "e": return new ArrowType.FloatingPoint(16);
            case "f": return new ArrowType.FloatingPoint(32);
            case "g": return new ArrowType.FloatingPoint(64);
            case "z": return new ArrowType.Binary();
            case "Z": return new ArrowType.LargeBinary();
            case "vz": return new ArrowType.BinaryView();
            case "u": return new ArrowType.Utf8();
            case "U": return new ArrowType.LargeUtf8();
            case "vu": return new ArrowType.Utf8View();
            case "tdD": return ArrowType.Date.days();
            case "tdm": return ArrowType.Date.milliseconds();
            case "tiM": return new ArrowType.Interval(IntervalUnit.YEAR_MONTH);
            case "tiD": return new ArrowType.Interval(IntervalUnit.DAY_TIME);
            case "tin": return new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO);
            case "+l": return new ArrowType.ListType();
            case "+L": return new ArrowType.LargeList();
            case "+vl": return new ArrowType.ListView();
            case "+vL": return new ArrowType.LargeListView();
            case "+s": return new ArrowType.Struct();
            case "+m": return new ArrowType.MapType(false);
            case "+r": return new ArrowType.RunEndEncoded();
            default: return parseParameterised(format);
        }
    }

    private static ArrowType parseParameterised(String format) {
        if (format.startsWith("d:")) {
            List<Integer> parts = integers(format, format.substring(2), 2, 3);
            int bitWidth = parts.size() == 3 ? parts.get(2) : 128;
            return wrap(format, () -> new ArrowType.Decimal(parts.get(0), parts.get(1), bitWidth));
        }
        if (format.startsWith("w:")) {
            return wrap(format, () -> new ArrowType.FixedSizeBinary(integers(format, format.substring(2), 1, 1).getFirst()));
        }
        if (format.startsWith("+w:")) {
            return wrap(format, () -> new ArrowType.FixedSizeList(integers(format, format.substring(3), 1, 1).getFirst()));
        }
        if (format.length() == 3 && format.startsWith("tt")) {
            TimeUnit unit = TimeUnit.of(format.charAt(2), format);
            return new ArrowType.Time(unit);
        }
        if (format.length() == 3 && format.startsWith("tD")) {
            return new ArrowType.Duration(TimeUnit.of(format.charAt(2), format));
        }
        if (format.length() >= 4 && format.startsWith("ts") && format.charAt(3) == ':') {
            return new ArrowType.Timestamp(TimeUnit.of(format.charAt(2), format), format.substring(4));
        }
        if (format.startsWith("+ud:") || format.startsWith("+us:")) {
            ArrowType.UnionMode mode = format.charAt(2) == 'd' ? ArrowType.UnionMode.DENSE : ArrowType.UnionMode.SPARSE;
            String ids = format.substring(4);
            List<Integer> typeIds = ids.isEmpty() ? List.of() : integers(format, ids, 1, 128);
            return wrap(format, () -> new ArrowType.Union(mode, typeIds));
        }
        throw new IllegalArgumentException("unknown format string \"" + printable(format) + "\"");
    }

    /**
     * {@return its format string}
     * @param type a type
     */
    public static String write(ArrowType type) {
        return switch (type) {
            case ArrowType.Null n -> "n";
            case ArrowType.Bool b -> "b";
            case ArrowType.Int i -> switch (i.bitWidth()) {
                case 8 -> i.signed() ? "c" : "C";
                case 16 -> i.signed() ? "s" : "S";
                case 32 -> i.signed() ? "i" : "I";
                default -> i.signed() ? "l" : "L";
            };
            case ArrowType.FloatingPoint f -> switch (f.bitWidth()) {
                case 16 -> "e";
                case 32 -> "f";
                default -> "g";
            };
            case ArrowType.Decimal d -> "d:" + d.precision() + "," + d.scale() + (d.bitWidth() == 128 ? "" : "," + d.bitWidth());
            case ArrowType.FixedSizeBinary w -> "w:" + w.byteWidth();
            case ArrowType.Binary b -> "z";
            case ArrowType.LargeBinary b -> "Z";
            case ArrowType.BinaryView b -> "vz";
            case ArrowType.Utf8 u -> "u";
            case ArrowType.LargeUtf8 u -> "U";
            case ArrowType.Utf8View u -> "vu";
            case ArrowType.Date d -> d.unit() == ArrowType.DateUnit.DAY ? "tdD" : "tdm";
            case ArrowType.Time t -> "tt" + t.unit().letter();
            case ArrowType.Timestamp t -> "ts" + t.unit().letter() + ":" + t.timezone();
            case ArrowType.Duration d -> "tD" + d.unit().letter();
            case ArrowType.Interval i -> "ti" + i.unit().letter();
            case ArrowType.ListType l -> "+l";
            case ArrowType.LargeList l -> "+L";
            case ArrowType.FixedSizeList l -> "+w:" + l.listSize();
            case ArrowType.ListView l -> "+vl";
            case ArrowType.LargeListView l -> "+vL";
            case ArrowType.Struct s -> "+s";
            case ArrowType.MapType m -> "+m";
            case ArrowType.Union u -> (u.mode() == ArrowType.UnionMode.DENSE ? "+ud:" : "+us:")
                    + String.join(",", u.typeIds().stream().map(String::valueOf).toList());
            case ArrowType.RunEndEncoded r -> "+r";
        };
    }

    private static List<Integer> integers(String format, String list, int min, int max) {
        String[] parts = list.split(",", -1);
        if (parts.length < min || parts.length > max) {
            throw malformed(format, "expected " + (min == max ? min : min + ".." + max) + " comma-separated integers");
        }
        List<Integer> out = new ArrayList<>();
        for (String part : parts) {
            try {
                out.add(Integer.parseInt(part));
            } catch (NumberFormatException e) {
                throw malformed(format, "\"" + printable(part) + "\" is not an integer");
            }
        }
        return out;
    }

    private static ArrowType wrap(String format, java.util.function.Supplier<ArrowType> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw malformed(format, e.getMessage());
        }
    }

    static IllegalArgumentException malformed(String format, String why) {
        return new IllegalArgumentException("malformed format string \"" + printable(format) + "\": " + why);
    }

    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && i < 64; i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return s.length() > 64 ? out + "..." : out.toString();
    }

    private FormatString() {}
}
