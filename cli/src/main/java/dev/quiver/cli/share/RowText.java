package dev.quiver.cli.share;

import dev.quiver.host.ArrayReader;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Rows and schemas as one line of at most 100 columns each. Stateless. */
final class RowText {
    private static final int COLUMNS = 100;

    private RowText() {}

    /**
     * @param reader a batch
     * @param count  how many more rows are wanted (none when not positive)
     * @param into   receives one line per row, from the batch's first
     */
    static void take(ArrayReader reader, int count, List<String> into) {
        for (long i = 0; i < Math.min(count, reader.length()); i++) {
            into.add(fit(row(reader.getObject(i))));
        }
    }

    /** @return a struct row as {@code name=value} pairs, any other value as Java prints it */
    static String row(Object value) {
        if (value instanceof Map<?, ?> members) {
            return members.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("  "));
        }
        return String.valueOf(value);
    }

    /** @return a struct's columns as {@code name type}, any other field as its own name and type */
    static String schema(Field field) {
        if (field.type() instanceof ArrowType.Struct) {
            return field.children().stream().map(RowText::column).collect(Collectors.joining(", "));
        }
        return column(field);
    }

    private static String column(Field field) {
        String type = switch (field.type()) {
            case ArrowType.Int t -> (t.signed() ? "int" : "uint") + t.bitWidth();
            case ArrowType.FloatingPoint t -> "float" + t.bitWidth();
            default -> field.type().getClass().getSimpleName().toLowerCase(Locale.ROOT);
        };
        return field.name() + " " + type;
    }

    /** @return {@code line}, cut to 100 columns with an ellipsis where it is longer */
    static String fit(String line) {
        return line.length() <= COLUMNS ? line : line.substring(0, COLUMNS - 3) + "...";
    }
}
