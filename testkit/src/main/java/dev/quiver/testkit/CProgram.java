package dev.quiver.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A C program compiled and run at test time, for facts only a compiler knows ({@code sizeof},
 * {@code offsetof}), or compiled for a test to run as a peer process. Thread-safe; each call compiles into a
 * fresh directory.
 */
public final class CProgram {
    private CProgram() {}

    /**
     * Compiles {@code sources} into an executable, runs it, and returns what it printed.
     *
     * @param sources C sources and headers
     * @param flags   extra compiler flags
     * @return standard output
     * @throws IllegalStateException with the compiler's or program's output if either fails
     */
    public static String run(List<CLibrary.Source> sources, List<String> flags) {
        Path program = compile(sources, flags);
        try {
            return exec(List.of(program.toString()), program.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Compiles {@code sources} into an executable in a fresh directory, for a test that runs it itself (with
     * arguments, as a peer process it talks to or kills).
     *
     * @param sources C sources and headers
     * @param flags   extra compiler flags
     * @return the executable's path
     * @throws IllegalStateException with the compiler's output if compilation fails
     */
    public static Path compile(List<CLibrary.Source> sources, List<String> flags) {
        try {
            Path dir = Files.createTempDirectory("quiver-cprog");
            List<String> command = new ArrayList<>(List.of(System.getenv().getOrDefault("CC", "cc"),
                    "-std=c11", "-Wall", "-Wextra", "-Werror", "-O0"));
            command.addAll(flags);
            for (CLibrary.Source source : sources) {
                Path file = dir.resolve(source.fileName());
                Files.writeString(file, source.text());
                if (source.fileName().endsWith(".c")) {
                    command.add(file.toString());
                }
            }
            Path program = dir.resolve("program");
            command.addAll(List.of("-o", program.toString()));
            String compiled = exec(command, dir);
            if (!Files.isExecutable(program)) {
                throw new IllegalStateException("C compilation failed: " + String.join(" ", command) + "\n" + compiled);
            }
            return program;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String exec(List<String> command, Path dir) throws IOException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + output);
        }
        return output;
    }
}
