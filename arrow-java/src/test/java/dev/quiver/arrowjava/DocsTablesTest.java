package dev.quiver.arrowjava;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every Markdown table in the README and in the pages under {@code docs/} has rows under its header: a figure table that lost its
 * rows (a header, a separator, nothing) fails the build instead of shipping empty.
 */
class DocsTablesTest {
    @Test
    void everyTableHasRows() throws IOException {
        List<Path> files = DocPages.all();
        List<String> empty = new ArrayList<>();
        int tables = 0;
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 1; i < lines.size(); i++) {
                if (isSeparator(lines.get(i)) && lines.get(i - 1).trim().startsWith("|")) {
                    tables++;
                    boolean hasRow = i + 1 < lines.size() && lines.get(i + 1).trim().startsWith("|");
                    if (!hasRow) {
                        empty.add(DocPages.name(file) + ":" + i + " " + lines.get(i - 1).trim());
                    }
                }
            }
        }
        assertFalse(tables == 0, "found no tables at all in " + files);
        assertEquals(List.of(), empty, "tables with a header and no rows");
    }

    private static boolean isSeparator(String line) {
        String t = line.trim();
        return t.startsWith("|") && t.matches("\\|(\\s*:?-{3,}:?\\s*\\|)+");
    }
}
