package dev.quiver.benchmarks;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.baselines.CBaselines;
import dev.quiver.share.ReceiveOptions;
import dev.quiver.share.ShareClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Batches per second of a stream of small batches between two processes on this machine (docs/SHARING.md),
 * beside the C floor of the same traffic, in one run; ops/s read as batches/s.
 *
 * <ul>
 *   <li>{@link #javaReceiverFromJavaOwner}: an owner JVM ({@link ShareStreamOwner}, started for the trial)
 *       streams int64 arrays of {@code rows} rows built in a shared arena; this JVM receives each with a
 *       {@link ShareClient} (window {@code window}, contents not validated), reads its last value and closes it,
 *       which releases it to the owner.</li>
 *   <li>{@link #cFloor}: two C processes exchanging the same frames ({@link CBaselines#shareStreamFloor}: a
 *       BATCH frame of {@value #BATCH_BODY_BYTES} bytes per batch, RELEASED with REQUEST every half window),
 *       with no Arrow work: what the socket and the two processes' wake-ups cost on this machine.</li>
 * </ul>
 *
 * <p>State is per trial: one owner process and one connection serve every iteration of the Java benchmark. Both
 * JVMs start cold and need some 20,000 batches before their code is compiled, hence the long warm-up.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 6, time = 2)
@Measurement(iterations = 5, time = 2)
public class ShareStream extends BenchmarkState {
    /**
     * The body of the BATCH message of a one-node int64 array with one MEMFD handle already known to the receiver
     * (docs/SHARING.md, "BATCH"): 16 bytes of header part, 32 of the handle, 8 of the event fields, 8 of node count
     * and reserved, 40 of the node and 2 × 24 of its buffers.
     */
    static final int BATCH_BODY_BYTES = 152;
    /** Batches per invocation of {@link #cFloor}. */
    static final int FLOOR_BATCHES = 200_000;

    /** Rows per batch. */
    @Param("1000")
    public int rows;

    /** Batches the receiver lets the owner send ahead of it. */
    @Param("64")
    public int window;

    private Process owner;
    private ShareClient client;
    private long lastRow;

    /**
     * Starts the owner JVM and connects to it.
     *
     * @throws IOException if the owner cannot be started or says nothing
     */
    @Override
    protected void setUp() throws IOException {
        owner = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ShareStreamOwner.class.getName(), Integer.toString(rows)))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); ; line = lines.readLine()) {
            if (line == null) {
                throw new IOException("the owner process ended before naming its socket");
            }
            if (line.startsWith("SOCKET ")) {
                client = ShareClient.connect(Path.of(line.substring("SOCKET ".length())), Devices.system().cpu(),
                        new ReceiveOptions(window, false));
                break;
            }
        }
        lastRow = 8L * (rows - 1);
    }

    /**
     * Closes the connection and waits for the owner to end.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    protected void tearDown() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (!owner.waitFor(30, TimeUnit.SECONDS)) {
            owner.destroyForcibly();
        }
    }

    /** {@return the last value of one batch received from the owner JVM} */
    @Benchmark
    public long javaReceiverFromJavaOwner() {
        try (DeviceArray array = client.next().orElseThrow().array()) {
            return array.buffer(1).asSegment().get(JAVA_LONG, lastRow);
        }
    }

    /** {@return nanoseconds of {@value #FLOOR_BATCHES} frames between two C processes} */
    @Benchmark
    @OperationsPerInvocation(FLOOR_BATCHES)
    public long cFloor() {
        return CBaselines.shareStreamFloor(FLOOR_BATCHES, BATCH_BODY_BYTES, window);
    }
}
