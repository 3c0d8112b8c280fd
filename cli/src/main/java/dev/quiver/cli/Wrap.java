package dev.quiver.cli;

import java.util.ArrayList;
import java.util.List;

/** Word wrapping and truncation for fixed-width text output. Stateless; thread-safe. */
final class Wrap {
    private Wrap() {}

    /**
     * @param text  one paragraph
     * @param width the most characters per line, at least 1
     * @return the paragraph broken at spaces into lines of at most {@code width} characters (a word longer
     *         than a line is cut); one empty line for empty text
     */
    static List<String> lines(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.strip().split("\\s+")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(word);
            while (line.length() > width) {
                lines.add(line.substring(0, width));
                line.delete(0, width);
            }
        }
        if (!line.isEmpty() || lines.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    /**
     * @param text  a cell
     * @param width the most characters it may take, at least 3
     * @return {@code text}, or its start and {@code ...} if it is longer than {@code width}
     */
    static String fit(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 3) + "...";
    }
}
