package dev.quiver.benchmarks;

import dev.quiver.DeviceType;
import dev.quiver.baselines.CBaselines;
import dev.quiver.Devices;
import dev.quiver.DeviceStream;
import dev.quiver.SyncEvent;
import org.openjdk.jmh.annotations.Benchmark;


/**
 * Event record + host wait on OpenCL (PoCL): {@link #quiver} creates, records, waits for and destroys an
 * event through the backend on its default queue; {@link #c} does the same work in C with
 * {@code clEnqueueMarkerWithWaitList} + {@code clWaitForEvents} + {@code clReleaseEvent}.
 */
public class EventLatency extends BenchmarkState {
    private DeviceStream stream;

    /** Finds the OpenCL device and opens the C baseline's own context. */
    @Override
    protected void setUp() {
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
