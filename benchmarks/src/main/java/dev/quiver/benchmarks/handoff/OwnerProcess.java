package dev.quiver.benchmarks.handoff;

import org.apache.arrow.flight.Location;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM that runs {@link HandoffOwner}: this JVM's {@code java} and class path, the JVM options given,
 * standard error inherited. Knows the share socket of each row count and the Flight server's port from the lines
 * the owner printed. Owned by the harness; {@link #close()} closes the owner's standard input (it exits) and
 * kills it if it has not within 10 seconds, keeping its exit status. Used from one thread.
 */
final class OwnerProcess implements AutoCloseable {
    private final Process process;
    private final Map<Long, Path> sockets;
    private final int port;
    private int exitStatus = -1;

    private OwnerProcess(Process process, Map<Long, Path> sockets, int port) {
        this.process = process;
        this.sockets = sockets;
        this.port = port;
    }

    /**
     * Starts the owner and waits until it serves.
     *
     * @param device  where it keeps its batches
     * @param rows    the row counts of its batches
     * @param jvmArgs the options of its JVM
     * @return the running owner
     * @throws IOException           if it cannot start
     * @throws IllegalStateException if it ends before it serves, or prints what it should not
     */
    static OwnerProcess start(HandoffDevice device, List<Long> rows, List<String> jvmArgs) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HandoffOwner.class.getName(),
                "--device", device.optionValue()));
        rows.forEach(r -> command.add(Long.toString(r)));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Map<Long, Path> sockets = new HashMap<>();
            for (String line = out.readLine(); ; line = out.readLine()) {
                if (line == null) {
                    throw new IllegalStateException("the owner JVM ended before it served (exit " + process.waitFor() + ")");
                } else if (line.startsWith("SHARE ")) {
                    String[] parts = line.split(" ", 3);
                    sockets.put(Long.parseLong(parts[1]), Path.of(parts[2]));
                } else if (line.startsWith("listening ")) {
                    return new OwnerProcess(process, sockets, Integer.parseInt(line.substring("listening ".length()).trim()));
                } else {
                    throw new IllegalStateException("the owner JVM printed " + line);
                }
            }
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the owner JVM started", e);
        }
    }

    /**
     * @param rows a row count the owner was started with
     * @return the share socket that hands out its batch
     */
    Path socket(long rows) {
        Path socket = sockets.get(rows);
        if (socket == null) {
            throw new IllegalArgumentException("the owner serves no batch of " + rows + " rows");
        }
        return socket;
    }

    /** {@return the owner's Flight server on loopback} */
    Location location() {
        return Location.forGrpcInsecure("127.0.0.1", port);
    }

    /** {@return the owner's exit status once {@link #close()} saw it end, else -1 (killed, or not closed yet)} */
    int exitStatus() {
        return exitStatus;
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the owner is gone already
        }
        try {
            if (process.waitFor(10, TimeUnit.SECONDS)) {
                exitStatus = process.exitValue();
            } else {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
