package dev.quiver.cli.flight;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code quiver flight serve} in a child JVM (the test class path, the options of the system property
 * {@code quiver.flight.childJvmArgs}), until the stream lines it prints have been read: where it serves and
 * the ticket of each stream. {@link #close()} kills it.
 */
final class ServeProcess implements AutoCloseable {
    private final Process process;
    private final String uri;
    private final Map<String, String> tickets;

    private ServeProcess(Process process, String uri, Map<String, String> tickets) {
        this.process = process;
        this.uri = uri;
        this.tickets = tickets;
    }

    /**
     * @param streams     how many stream lines to wait for
     * @param environment added to the child's environment
     * @param arguments   the arguments after {@code quiver flight serve}
     * @return the serving process
     */
    static ServeProcess start(int streams, Map<String, String> environment, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("quiver.flight.childJvmArgs").trim().split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.quiver.cli.Quiver", "flight", "serve", "--port", "0", "--seconds", "120"));
        command.addAll(Arrays.asList(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment);
        Process process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String uri = null;
        Map<String, String> tickets = new HashMap<>();
        while (tickets.size() < streams) {
            String line = out.readLine();
            if (line == null) {
                throw new IOException("quiver flight serve exited with code " + process.waitFor());
            }
            String[] words = line.split(" ");
            if (line.startsWith("serving on ")) {
                uri = words[2];
            } else if (line.startsWith("stream ")) {
                tickets.put(words[1], words[3]);
            }
        }
        return new ServeProcess(process, uri, tickets);
    }

    /** @return where it serves */
    String uri() {
        return uri;
    }

    /**
     * @param stream a stream's name
     * @return its ticket
     */
    String ticket(String stream) {
        return tickets.get(stream);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
}
