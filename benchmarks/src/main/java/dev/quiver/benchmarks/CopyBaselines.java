package dev.quiver.benchmarks;

import dev.quiver.baselines.CBaselines;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;


/**
 * The C limits for {@link CopyBandwidth}, per size: {@link #memcpy} (two C {@code memcpy} calls, the host
 * limit of a round trip) and {@link #openclFromC} (the OpenCL write + read + finish a C application makes,
 * {@code bench_opencl.c} in {@link CBaselines}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CopyBaselines {
    /** Bytes per copy. */
    @Param({"4096", "65536", "1048576", "16777216", "268435456"})
    public long size;

    private Arena arena;
    private MemorySegment host;
    private MemorySegment other;

    /** Allocates the host buffers and opens the C OpenCL baseline. */
    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        host = arena.allocate(size, 64).fill((byte) 7);
        other = arena.allocate(size, 64);
        CBaselines.openOpenCl();
    }

    /** Frees the host buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /**
     * @return a byte, so the copies are not dead
     */
    @Benchmark
    public long memcpy() {
        return CBaselines.memcpyRoundTrip(host, other, size, 1);
    }

    /** The same OpenCL calls made by C. */
    @Benchmark
    public void openclFromC() {
        CBaselines.openClRoundTrip(host, size, 1);
    }
}
