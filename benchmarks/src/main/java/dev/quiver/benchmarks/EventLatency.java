package dev.quiver.benchmarks;

import dev.quiver.DeviceType;
import dev.quiver.baselines.CBaselines;
import dev.quiver.Devices;
import dev.quiver.DeviceStream;
import dev.quiver.SyncEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Event record + host wait on OpenCL (PoCL): {@link #quiver} creates, records, waits for and destroys an
 * event through the backend on its default queue; {@link #c} does the same work in C with
 * {@code clEnqueueMarkerWithWaitList} + {@code clWaitForEvents} + {@code clReleaseEvent}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class EventLatency {
    private DeviceStream stream;

    /** Finds the OpenCL device and opens the C baseline's own context. */
    @Setup(Level.Trial)
    public void setUp() {
        stream = Devices.system().get(DeviceType.OPENCL, 0).defaultStream();
        CBaselines.openOpenCl();
    }

    /** Record and host wait through Quiver. */
    @Benchmark
    public void quiver() {
        try (SyncEvent event = stream.recordEvent()) {
            event.waitOnHost();
        }
    }

    /** The same work in C. */
    @Benchmark
    public void c() {
        CBaselines.openClEvents(1);
    }
}
