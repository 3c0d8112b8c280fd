package dev.quiver.share;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM for two-process tests: the same {@code java} and class path as this one, with native access and
 * this JVM's Vulkan settings, running
 * {@link ShareChild}. Its standard output is read line by line; standard error goes to a file, shown when a
 * test fails. Owned by the test that starts it, which destroys it.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader output;
    private final Path errors;

    private ChildJvm(Process process, Path errors) {
        this.process = process;
        this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.errors = errors;
    }

    /** The system properties a child runs with as this JVM does: how Vulkan runs (validation layer, LWJGL). */
    private static final List<String> PASSED_ON = List.of("quiver.vulkan.validation", "org.lwjgl.system.memoryBackend",
            "org.lwjgl.vulkan.libname");

    static ChildJvm start(String... arguments) {
        return startMain(ShareChild.class, arguments);
    }

    /** {@return a child JVM running {@code main}'s {@code main} method with {@code arguments}} */
    static ChildJvm startMain(Class<?> main, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Dquiver.leakTracking=true", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        for (String key : PASSED_ON) {
            String value = System.getProperty(key);
            if (value != null) {
                command.add("-D" + key + "=" + value);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(arguments));
        try {
            Path errors = java.nio.file.Files.createTempFile("quiver-share-child", ".err");
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            return new ChildJvm(process, errors);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return the next line the child printed} @throws IllegalStateException with its errors if it ended first */
    String line() {
        try {
            String line = output.readLine();
            if (line == null) {
                throw new IllegalStateException("the child JVM ended (exit " + waitFor() + "): " + errors());
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return the next line that starts with {@code prefix}, without the prefix} */
    String lineStartingWith(String prefix) {
        while (true) {
            String line = line();
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
        }
    }

    List<String> remainingLines() {
        List<String> lines = new ArrayList<>();
        try {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    int waitFor() {
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("the child JVM did not end within 120 s: " + errors());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    long pid() {
        return process.pid();
    }

    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    String errors() {
        try {
            return java.nio.file.Files.readString(errors);
        } catch (IOException e) {
            return "(no error output: " + e + ")";
        }
    }

    @Override
    public void close() {
        kill();
        try {
            java.nio.file.Files.deleteIfExists(errors);
        } catch (IOException ignored) {
            // a temporary file
        }
    }
}
