package dev.quiver.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code quiver share} in a child JVM (the test class path, the options of the system property
 * {@code quiver.flight.childJvmArgs}), standard error merged into standard output, started and read until it
 * printed the socket it listens at. {@link #close()} kills it if it is still running.
 */
final class ShareProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader output;
    private final Path socket;
    private final List<String> lines;

    private ShareProcess(Process process, BufferedReader output, Path socket, List<String> lines) {
        this.process = process;
        this.output = output;
        this.socket = socket;
        this.lines = lines;
    }

    /**
     * @param arguments the arguments after {@code quiver share}
     * @return the sharing process, listening
     */
    static ShareProcess start(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("quiver.flight.childJvmArgs").trim().split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.quiver.cli.Quiver", "share", "--seconds", "120"));
        command.addAll(Arrays.asList(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        while (true) {
            String line = output.readLine();
            if (line == null) {
                throw new IOException("quiver share exited with code " + process.waitFor() + " having printed " + lines);
            }
            lines.add(line);
            if (line.startsWith("sharing on ")) {
                return new ShareProcess(process, output, Path.of(line.substring("sharing on ".length())), lines);
            }
        }
    }

    /** @return the socket it listens at */
    Path socket() {
        return socket;
    }

    /**
     * Waits for the process to exit.
     *
     * @return its exit code
     */
    int exitCode() throws IOException, InterruptedException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            lines.add(line);
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IOException("quiver share did not exit; it printed " + lines);
        }
        return process.exitValue();
    }

    /** @return every line it printed so far, both streams */
    String printed() {
        return String.join("\n", lines);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
}
