package dev.quiver.benchmarks;

import dev.quiver.Device;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.lang.foreign.MemorySegment;


/**
 * Round trips of one buffer, host -> device -> host, per operation: {@code 2 x size} bytes move.
 * {@link #quiver} runs the backend's {@code copyFromHost} + {@code copyToHost} on its default stream, then
 * {@code synchronizeStream}, for {@code cpu}, {@code opencl} (PoCL) and {@code vulkan} (lavapipe). The C
 * baselines for the same sizes are in {@link CopyBaselines}.
 */
public class CopyBandwidth extends BenchmarkState {
    /** Backend under test. */
    @Param({"cpu", "opencl", "vulkan"})
    public String backend;
    /** Bytes per copy. */
    @Param({"4096", "65536", "1048576", "16777216", "268435456"})
    public long size;

    private MemorySegment host;
    private DeviceBuffer buffer;
    private DeviceStream stream;

    /** Allocates the host buffers and the device buffer once. */
    @Override
    protected void setUp() {
        host = filled(size, 7);
        Device target = device(backend);
        buffer = target.allocate(size, 64);
        stream = target.defaultStream();
    }

    /** Frees what setUp made. */
    @Override
    protected void tearDown() {
        buffer.close();
    }

    /** Host -> device -> host through Quiver's public API. */
    @Benchmark
    public void quiver() {
        buffer.copyFromHost(host, 0, stream);
        buffer.copyToHost(0, host, stream);
        stream.synchronize();
    }
}
