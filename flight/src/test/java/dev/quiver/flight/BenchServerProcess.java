package dev.quiver.flight;

import org.apache.arrow.flight.Location;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BenchServer} in a child JVM, with this JVM's class path and the options of the system property
 * {@code quiver.flight.childJvmArgs}, and its side of the server's protocol: the buffer bytes of each batch it
 * made and, on request, the heap it has allocated so far. Its standard error goes to this JVM's. Owns the
 * process: {@link #close()} ends it (closing its input). One thread at a time.
 */
final class BenchServerProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final OutputStream in;
    private final int port;
    private final Map<String, Long> bufferBytes;

    private BenchServerProcess(Process process, BufferedReader out, int port, Map<String, Long> bufferBytes) {
        this.process = process;
        this.out = out;
        this.in = process.getOutputStream();
        this.port = port;
        this.bufferBytes = bufferBytes;
    }

    /**
     * Starts the server and waits until it listens (it makes every batch first: seconds for a few GiB).
     *
     * @param options what it serves
     * @return the running server
     * @throws IOException          if it exits before it listens
     * @throws InterruptedException if interrupted while it ends
     */
    static BenchServerProcess start(BenchOptions options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("quiver.flight.childJvmArgs", "").trim().split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchServer.class.getName()));
        command.addAll(Arrays.asList(options.serverArgs()));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Map<String, Long> bytes = new HashMap<>();
        for (String line; (line = out.readLine()) != null; ) {
            String[] words = line.split(" ");
            if (words[0].equals("batch")) {
                bytes.put(words[1] + " " + words[2], Long.parseLong(words[3]));
            } else if (words[0].equals("listening")) {
                return new BenchServerProcess(process, out, Integer.parseInt(words[1]), bytes);
            } else {
                System.err.println("[bench server] " + line);
            }
        }
        String code = process.waitFor(10, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none, killed";
        process.destroyForcibly();
        throw new IOException("the bench server exited before listening (exit code " + code + ")");
    }

    /** {@return where it listens} */
    Location location() {
        return Location.forGrpcInsecure("127.0.0.1", port);
    }

    /**
     * @param c a case it serves
     * @return the buffer bytes of one batch of that case, as Arrow Java counts them
     */
    long batchBytes(BenchCase c) {
        return bufferBytes.get(c.type() + " " + c.batchBytes());
    }

    /**
     * @return the heap the server's threads have allocated so far, in bytes
     * @throws IOException if the server is gone
     */
    long heap() throws IOException {
        in.write("heap\n".getBytes(StandardCharsets.US_ASCII));
        in.flush();
        String line = out.readLine();
        if (line == null || !line.startsWith("heap ")) {
            throw new IOException("the bench server answered " + line + " to heap");
        }
        return Long.parseLong(line.substring("heap ".length()));
    }

    @Override
    public void close() throws InterruptedException {
        try {
            in.close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
