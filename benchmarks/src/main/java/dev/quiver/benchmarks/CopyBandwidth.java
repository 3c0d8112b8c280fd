package dev.quiver.benchmarks;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
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
 * Round trips of one buffer, host -> device -> host, per operation: {@code 2 x size} bytes move.
 * {@link #quiver} runs the backend's {@code copyFromHost} + {@code copyToHost} on its default stream, then
 * {@code synchronizeStream}, for {@code cpu}, {@code opencl} (PoCL) and {@code vulkan} (lavapipe). The C
 * baselines for the same sizes are in {@link CopyBaselines}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CopyBandwidth {
    /** Backend under test. */
    @Param({"cpu", "opencl", "vulkan"})
    public String backend;
    /** Bytes per copy. */
    @Param({"4096", "65536", "1048576", "16777216", "268435456"})
    public long size;

    private Arena arena;
    private MemorySegment host;
    private DeviceBuffer buffer;
    private DeviceStream stream;

    /** Allocates the host buffers and the device buffer once. */
    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        host = arena.allocate(size, 64).fill((byte) 7);
        DeviceType type = DeviceType.byName(backend).orElseThrow();
        Device target = Devices.system().get(type, type.equals(DeviceType.CPU) ? -1 : 0);
        buffer = target.allocate(size, 64);
        stream = target.defaultStream();
    }

    /** Frees what setUp made. */
    @TearDown(Level.Trial)
    public void tearDown() {
        buffer.close();
        arena.close();
    }

    /** Host -> device -> host through Quiver's public API. */
    @Benchmark
    public void quiver() {
        buffer.copyFromHost(host, 0, stream);
        buffer.copyToHost(0, host, stream);
        stream.synchronize();
    }
}
