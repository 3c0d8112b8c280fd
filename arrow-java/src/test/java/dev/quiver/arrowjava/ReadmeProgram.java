package dev.quiver.arrowjava;

import java.util.ArrayList;
import java.util.List;

/**
 * A README block as a compilation unit: its {@code import} lines hoisted to the top, every other line inside
 * {@code public static void run() throws Throwable} of a public class in the unnamed package. Remembers which
 * file line each line of the generated source came from, so that compiler diagnostics and stack traces can
 * name the README line.
 */
final class ReadmeProgram {
    private final String className;
    private final String source;
    private final int[] fileLines;

    private ReadmeProgram(String className, String source, int[] fileLines) {
        this.className = className;
        this.source = source;
        this.fileLines = fileLines;
    }

    /**
     * @param block the block
     * @return the block wrapped in a class named after the block's fence line
     */
    static ReadmeProgram of(ReadmeBlock block) {
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
        return new ReadmeProgram(className, String.join("\n", text) + "\n", lines.stream().mapToInt(Integer::intValue).toArray());
    }

    private static boolean isImport(String line) {
        String code = line.strip();
        return code.startsWith("import ") && code.endsWith(";");
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
     * @return the README line it came from
     */
    int fileLine(long generatedLine) {
        int index = Math.clamp(generatedLine - 1, 0, fileLines.length - 1);
        return fileLines[index];
    }
}
