package dev.quiver.arrowjava;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A README block as a compilation unit. A block that declares a {@code public class} with a {@code main}
 * method is complete, as a reader would save it to a file, and compiles as it stands; any other block has its
 * {@code import} lines hoisted to the top and every other line put inside
 * {@code public static void run() throws Throwable} of a public class in the unnamed package. Remembers which
 * file line each line of the source came from, so that compiler diagnostics and stack traces can name the
 * line of the Markdown file.
 */
final class ReadmeProgram {
    private static final Pattern COMPLETE = Pattern.compile("^public (?:final )?class (\\w+)\\b");

    private final String page;
    private final String className;
    private final String source;
    private final int[] fileLines;
    private final boolean complete;

    private ReadmeProgram(String page, String className, String source, int[] fileLines, boolean complete) {
        this.page = page;
        this.className = className;
        this.source = source;
        this.fileLines = fileLines;
        this.complete = complete;
    }

    /**
     * @param block the block
     * @return the block wrapped in a class named after the block's fence line
     */
    static ReadmeProgram of(ReadmeBlock block) {
        for (String line : block.lines()) {
            Matcher declared = COMPLETE.matcher(line);
            if (declared.find()) {
                int[] fileLines = new int[block.lines().size()];
                for (int i = 0; i < fileLines.length; i++) {
                    fileLines[i] = block.fileLine(i);
                }
                return new ReadmeProgram(block.page(), declared.group(1), String.join("\n", block.lines()) + "\n", fileLines, true);
            }
        }
        String className = "ReadmeLine" + block.fenceLine();
        List<String> text = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        for (int i = 0; i < block.lines().size(); i++) {
            if (isImport(block.lines().get(i))) {
                text.add(block.lines().get(i));
                lines.add(block.fileLine(i));
            }
        }
        text.add("public final class " + className + " { public static void run() throws Throwable {");
        lines.add(block.fenceLine());
        for (int i = 0; i < block.lines().size(); i++) {
            if (!isImport(block.lines().get(i))) {
                text.add(block.lines().get(i));
                lines.add(block.fileLine(i));
            }
        }
        text.add("} }");
        lines.add(block.fileLine(block.lines().size()));
        return new ReadmeProgram(block.page(), className, String.join("\n", text) + "\n", lines.stream().mapToInt(Integer::intValue).toArray(), false);
    }

    private static boolean isImport(String line) {
        String code = line.strip();
        return code.startsWith("import ") && code.endsWith(";");
    }

    /** @return true if the block is a complete class, run through its {@code main(String[])}; else through {@code run()} */
    boolean complete() {
        return complete;
    }

    /** @return the binary name of the generated class */
    String className() {
        return className;
    }

    /** @return the generated compilation unit */
    String source() {
        return source;
    }

    /**
     * @param generatedLine a 1-based line of {@link #source()}
     * @return the line of the Markdown file it came from
     */
    int fileLine(long generatedLine) {
        int index = Math.clamp(generatedLine - 1, 0, fileLines.length - 1);
        return fileLines[index];
    }

    /**
     * @param generatedLine a 1-based line of {@link #source()}
     * @return the file and line it came from, as failures name it ({@code docs/guides/flight.md line 40})
     */
    String where(long generatedLine) {
        return page + " line " + fileLine(generatedLine);
    }
}
