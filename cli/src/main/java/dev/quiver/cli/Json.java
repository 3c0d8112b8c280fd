package dev.quiver.cli;

import java.util.List;
import java.util.stream.Collectors;

/** JSON literals for the commands' machine-readable output. Stateless; thread-safe. */
final class Json {
    private Json() {}

    /** @return {@code value} as a JSON string literal, quotes, backslashes and control characters escaped */
    static String quote(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** @return {@code values} as a JSON array of strings */
    static String strings(List<String> values) {
        return values.stream().map(Json::quote).collect(Collectors.joining(", ", "[", "]"));
    }
}
