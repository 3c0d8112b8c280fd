package dev.quiver.arrowjava;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code ```java} blocks of a Markdown text. Fences of other languages ({@code ```sh}, plain
 * {@code ```}) and their contents are skipped. A block is compile-only when the last non-blank line before its
 * fence is {@code <!-- compile-only: reason -->}.
 */
final class ReadmeBlocks {
    private static final Pattern COMPILE_ONLY = Pattern.compile("<!--\\s*compile-only:\\s*(.*?)\\s*-->");

    private ReadmeBlocks() {}

    /**
     * @param markdown the whole file
     * @return its Java blocks, in file order
     * @throws IllegalArgumentException if a fence is never closed, naming the line it opens on
     */
    static List<ReadmeBlock> javaBlocks(String markdown) {
        List<String> lines = markdown.lines().toList();
        List<ReadmeBlock> blocks = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                i++;
                continue;
            }
            int close = closingFence(lines, i);
            if (fence.equals("```java")) {
                blocks.add(new ReadmeBlock(i + 1, lines.subList(i + 1, close), compileOnlyReason(lines, i)));
            }
            i = close + 1;
        }
        return blocks;
    }

    private static int closingFence(List<String> lines, int open) {
        for (int j = open + 1; j < lines.size(); j++) {
            if (lines.get(j).strip().equals("```")) {
                return j;
            }
        }
        throw new IllegalArgumentException("the code fence at line " + (open + 1) + " is never closed");
    }

    private static Optional<String> compileOnlyReason(List<String> lines, int fence) {
        for (int j = fence - 1; j >= 0; j--) {
            String line = lines.get(j).strip();
            if (!line.isEmpty()) {
                Matcher marker = COMPILE_ONLY.matcher(line);
                return marker.matches() ? Optional.of(marker.group(1)) : Optional.empty();
            }
        }
        return Optional.empty();
    }
}
