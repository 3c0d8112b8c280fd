package dev.quiver.arrowjava;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code ```java} blocks of a Markdown text. Fences of other languages ({@code ```sh}, plain
 * {@code ```}) and their contents are skipped. Comments right before a fence (blank lines between them allowed)
 * mark its block: {@code <!-- compile-only: reason -->} makes it compile-only, {@code <!-- runs in: module -->}
 * gives it to another module's tests (one whose class path it needs).
 */
final class ReadmeBlocks {
    private static final Pattern COMPILE_ONLY = Pattern.compile("<!--\\s*compile-only:\\s*(.*?)\\s*-->");
    private static final Pattern RUNS_IN = Pattern.compile("<!--\\s*runs in:\\s*(.*?)\\s*-->");

    private ReadmeBlocks() {}

    /**
     * @param page     the file's name, as failures name it
     * @param markdown the whole file
     * @return its Java blocks, in file order
     * @throws IllegalArgumentException if a fence is never closed, naming the line it opens on
     */
    static List<ReadmeBlock> javaBlocks(String page, String markdown) {
        List<String> lines = markdown.lines().toList();
        List<ReadmeBlock> blocks = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                i++;
                continue;
            }
            int close = closingFence(page, lines, i);
            if (fence.equals("```java")) {
                blocks.add(new ReadmeBlock(page, i + 1, lines.subList(i + 1, close), marker(lines, i, COMPILE_ONLY), marker(lines, i, RUNS_IN)));
            }
            i = close + 1;
        }
        return blocks;
    }

    private static int closingFence(String page, List<String> lines, int open) {
        for (int j = open + 1; j < lines.size(); j++) {
            if (lines.get(j).strip().equals("```")) {
                return j;
            }
        }
        throw new IllegalArgumentException(page + ": the code fence at line " + (open + 1) + " is never closed");
    }

    /** The value of the marker {@code pattern} among the marker comments right before the fence. */
    private static Optional<String> marker(List<String> lines, int fence, Pattern pattern) {
        for (int j = fence - 1; j >= 0; j--) {
            String line = lines.get(j).strip();
            if (line.isEmpty()) {
                continue;
            }
            Matcher marker = pattern.matcher(line);
            if (marker.matches()) {
                return Optional.of(marker.group(1));
            }
            if (!COMPILE_ONLY.matcher(line).matches() && !RUNS_IN.matcher(line).matches()) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
