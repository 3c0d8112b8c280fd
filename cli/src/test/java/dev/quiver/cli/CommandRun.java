package dev.quiver.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
}
