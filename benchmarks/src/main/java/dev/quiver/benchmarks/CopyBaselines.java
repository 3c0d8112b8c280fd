package dev.quiver.benchmarks;

import dev.quiver.baselines.CBaselines;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.lang.foreign.MemorySegment;


/**
 * The C limits for {@link CopyBandwidth}, per size: {@link #memcpy} (two C {@code memcpy} calls, the host
 * limit of a round trip) and {@link #openclFromC} (the OpenCL write + read + finish a C application makes,
 * {@code bench_opencl.c} in {@link CBaselines}).
 */
public class CopyBaselines extends BenchmarkState {
    /** Bytes per copy. */
    @Param({"4096", "65536", "1048576", "16777216", "268435456"})
    public long size;

    private MemorySegment host;
    private MemorySegment other;

    /** Allocates the host buffers and opens the C OpenCL baseline. */
    @Override
    protected void setUp() {
        host = filled(size, 7);
        other = arena().allocate(size, 64);
        CBaselines.openOpenCl();
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
