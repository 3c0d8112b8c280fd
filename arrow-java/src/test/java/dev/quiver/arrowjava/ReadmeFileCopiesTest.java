package dev.quiver.arrowjava;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A block of the README or of a docs page right after {@code <!-- the file: path -->} (a path from the
 * repository's root) is that file of the repository as it is: an {@code xml} block the whole file; a {@code java}
 * block the file's imports and the body of its {@code main} method, which the documentation check runs while the
 * build in {@code it/} compiles and runs the file itself.
 */
class ReadmeFileCopiesTest {
    private static final Pattern MARKER = Pattern.compile("<!--\\s*the file:\\s*(\\S+)\\s*-->");

    @Test
    void everyMarkedBlockIsItsFile() throws IOException {
        int checked = 0;
        for (Path page : DocPages.all()) {
            checked += checkCopies(page);
        }
        assertFalse(checked == 0, "neither the README nor docs/ marks a block as a copy of a file");
    }

    /** @return how many blocks of the page are marked as copies, each checked against its file */
    private static int checkCopies(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        int checked = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher marker = MARKER.matcher(lines.get(i).strip());
            if (!marker.matches()) {
                continue;
            }
            int fence = i + 1;
            while (lines.get(fence).isBlank()) {
                fence++;
            }
            String language = lines.get(fence).strip().substring(3);
            int close = fence + 1;
            while (!lines.get(close).strip().equals("```")) {
                close++;
            }
            Path file = DocPages.root().resolve(marker.group(1));
            List<String> expected = language.equals("java") ? importsAndMainBody(Files.readAllLines(file)) : Files.readAllLines(file);
            assertEquals(String.join("\n", expected), String.join("\n", lines.subList(fence + 1, close)),
                    DocPages.name(page) + " block at line " + (fence + 1) + " against " + marker.group(1));
            checked++;
        }
        return checked;
    }

    /** The file without its package line, its class and main declarations and their closing braces, dedented. */
    private static List<String> importsAndMainBody(List<String> file) {
        List<String> kept = new ArrayList<>();
        boolean inMain = false;
        for (String line : file.subList(0, file.size() - 2)) {   // the closing braces of main and the class
            if (line.startsWith("package ") || line.startsWith("public final class ")) {
                continue;
            }
            if (line.strip().startsWith("public static void main(")) {
                inMain = true;
                continue;
            }
            kept.add(inMain && line.length() >= 8 ? line.substring(8) : line);
        }
        while (kept.getFirst().isBlank()) {
            kept.removeFirst();
        }
        return kept;
    }
}
