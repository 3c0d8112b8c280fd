package dev.quiver.flight;

import org.apache.arrow.flight.Location;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link TestServer} (or another server main) in a child JVM on a loopback port, with the test JVM's class path and the JVM options
 * of the system property {@code quiver.flight.childJvmArgs}. Its output after the port line goes to this
 * JVM's standard error. {@link #close()} ends it (closing its input); {@link #kill()} kills it at once.
 */
final class ChildServer implements AutoCloseable {
    private final Process process;
    private final int port;
    private final boolean tls;

    private ChildServer(Process process, int port, boolean tls) {
        this.process = process;
        this.port = port;
        this.tls = tls;
    }

    /**
     * @param options {@link TestServer}'s options
     * @return the running server
     * @throws IOException if it does not start within a minute
     */
    static ChildServer start(String... options) throws IOException {
        return start(TestServer.class, options);
    }

    /**
     * @param main    the server's main class, which prints {@code listening PORT} once it serves
     * @param options its arguments
     * @return the running server
     * @throws IOException if it does not start within a minute
     */
    static ChildServer start(Class<?> main, String... options) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("quiver.flight.childJvmArgs", "").trim().split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(Arrays.asList(options));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> portLine = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null && !line.startsWith("listening ")) {
                    System.err.println("[test server] " + line);
                }
                return line;
            } catch (IOException e) {
                return null;
            }
        });
        String line;
        try {
            line = portLine.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IOException("the test server did not start within a minute", e);
        }
        if (line == null) {
            process.destroyForcibly();
            throw new IOException("the test server exited before listening (exit code " + waitFor(process) + ")");
        }
        Thread.ofPlatform().daemon().start(() -> out.lines().forEach(l -> System.err.println("[test server] " + l)));
        return new ChildServer(process, Integer.parseInt(line.substring("listening ".length()).trim()), List.of(options).contains("--tls"));
    }

    private static int waitFor(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** @return where it listens, {@code grpc+tls} if it was started with TLS */
    Location location() {
        return tls ? Location.forGrpcTls("localhost", port) : Location.forGrpcInsecure("127.0.0.1", port);
    }

    /** @return its loopback port */
    int port() {
        return port;
    }

    /** Kills it at once (SIGKILL): no stream ends cleanly. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
