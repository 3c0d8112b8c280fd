package dev.quiver.type;

/**
 * Parses and writes the format strings of the Arrow C Data Interface.
 */
public final class FormatString {

    /**
     * @param format a format string, for example {@code "i"} or {@code "+l"}
     * @return its type
     * @throws IllegalArgumentException naming the format if it is unknown or malformed
     */
    public static ArrowType parse(String format) {
        return switch (format) {
            case "n" -> ArrowType.nullType();
            case "b" -> ArrowType.bool();
            case "c" -> ArrowType.integer(8, true);
            case "C" -> ArrowType.integer(8, false);
            case "s" -> ArrowType.integer(16, true);
            case "S" -> ArrowType.integer(16, false);
            case "i" -> ArrowType.integer(32, true);
            case "I" -> ArrowType.integer(32, false);
            case "l" -> ArrowType.integer(64, true);
            case "L" -> ArrowType.integer(64, false);
            case "e" -> ArrowType.floatingPoint(16);
            case "f" -> ArrowType.floatingPoint(32);
            case "g" -> ArrowType.floatingPoint(64);
            case "u" -> ArrowType.utf8();
            case "z" -> ArrowType.binary();
            case "+l" -> ArrowType.list();
            case "+s" -> ArrowType.struct();
            default -> throw new IllegalArgumentException("unknown format string \"" + printable(format) + "\"");
        };
    }

    /**
     * @param type a type
     * @return its format string
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
            case ArrowType.Utf8 u -> "u";
            case ArrowType.Binary b -> "z";
            case ArrowType.ListType l -> "+l";
            case ArrowType.Struct s -> "+s";
        };
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
