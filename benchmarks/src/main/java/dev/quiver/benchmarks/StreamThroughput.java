package dev.quiver.benchmarks;

import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.host.HostVector;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.baselines.CBaselines;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;


/**
 * Batches per second through an {@code ArrowDeviceArrayStream}, both directions, against C compiled at
 * run time ({@code bench_streams.c}, through {@link CBaselines}). Each invocation moves {@value #BATCHES} int32 batches of length 3 on
 * the CPU, so the reported ops/s are batches/s.
 *
 * <ul>
 *   <li>{@link #cConsumerPullsFromJava}: a Java source exported with {@link DeviceArrayStream#exportTo}; C calls
 *       {@code get_next} and releases each array. Includes building each batch in Java
 *       ({@link HostVector#toDeviceArray}).</li>
 *   <li>{@link #cConsumerPullsFromJavaRelayingC}: the same C consumer pulling from Java, where the Java
 *       source is a C producer's stream imported as a {@link DeviceArrayStream} (an {@link java.util.Iterator}):
 *       the stream machinery of both directions without building batches in Java.</li>
 *   <li>{@link #javaPullsFromC}: a C producer imported as a {@link DeviceArrayStream}; Java validates each
 *       array, takes ownership and closes it (calling the C release).</li>
 * </ul>
 *
 * <p>State is per benchmark thread; nothing is shared between threads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class StreamThroughput extends BenchmarkState {
    /** Batches per invocation. */
    public static final int BATCHES = 1_000;

    private MemorySegment stream;
    private MemorySegment upstream;
    private HostVector batch;
    private Devices devices;

    /** Compiles and loads the C side; allocates the stream struct. */
    @Override
    protected void setUp() {
        stream = arena().allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
        upstream = arena().allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
        batch = HostVector.int32("v", 0, 1, 2);
        devices = Devices.cpuOnly();
    }

    /** {@return a confined arena: the stream structs are used on the benchmark thread alone} */
    @Override
    protected Arena openArena() {
        return Arena.ofConfined();
    }

    /**
     * @return the batches C received
     */
    @Benchmark
    @OperationsPerInvocation(BATCHES)
    public long cConsumerPullsFromJava() {
        DeviceArrayStream.of(batch.field(), DeviceType.CPU, Stream.generate(() -> batch.toDeviceArray(devices)).limit(BATCHES)).exportTo(stream);
        return drainInC();
    }

    /**
     * @return the batches C received
     */
    @Benchmark
    @OperationsPerInvocation(BATCHES)
    public long cConsumerPullsFromJavaRelayingC() {
        CBaselines.produceStream(upstream, BATCHES);
        DeviceArrayStream source = DeviceArrayStream.importFrom(upstream, ImportOptions.on(devices));
        DeviceArrayStream.of(source.schema(), source.deviceType(), source).exportTo(stream); // released with the stream
        return drainInC();
    }

    /**
     * The C limit: the C producer's stream drained by the C consumer, no Java in between.
     *
     * @return the batches C received
     */
    @Benchmark
    @OperationsPerInvocation(BATCHES)
    public long cPullsFromC() {
        CBaselines.produceStream(stream, BATCHES);
        return drainInC();
    }

    private long drainInC() {
        long received = CBaselines.drainStream(stream);
        if (received != BATCHES) {
            throw new IllegalStateException("C received " + received + " batches");
        }
        return received;
    }

    /**
     * @return the total length of the batches Java received
     */
    @Benchmark
    @OperationsPerInvocation(BATCHES)
    public long javaPullsFromC() {
        CBaselines.produceStream(stream, BATCHES);
        long rows = 0;
        try (DeviceArrayStream imported = DeviceArrayStream.importFrom(stream, ImportOptions.on(devices))) {
            while (imported.hasNext()) {
                try (DeviceArray array = imported.next()) {
                    rows += array.length();
                }
            }
        }
        if (rows != 3L * BATCHES) {
            throw new IllegalStateException("Java received " + rows + " rows");
        }
        return rows;
    }
}
