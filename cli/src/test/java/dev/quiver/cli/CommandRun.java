package dev.quiver.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs a {@code quiver} command in-process and captures what it prints. Swaps {@code System.out} and
 * {@code System.err}, so tests that use it must not run concurrently with each other.
 *
 * @param code the exit code
 * @param out  standard output
 * @param err  standard error
 */
record CommandRun(int code, String out, String err) {

    static CommandRun of(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream captureOut = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream captureErr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(captureOut);
            System.setErr(captureErr);
            int code = Quiver.run(args);
            return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    /**
     * @param backend a backend name
     * @return the lines {@code quiver devices} printed for it (its first line and the indented ones under
     *         it), joined by spaces so that wrapped text reads as one line; empty if it is not listed
     */
    String block(String backend) {
        List<String> lines = out.lines().toList();
        StringBuilder block = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(backend + " ")) {
                block.append(lines.get(i).strip());
                for (int j = i + 1; j < lines.size() && lines.get(j).startsWith(" "); j++) {
                    block.append(' ').append(lines.get(j).strip());
                }
                break;
            }
        }
        return block.toString();
    }
}
