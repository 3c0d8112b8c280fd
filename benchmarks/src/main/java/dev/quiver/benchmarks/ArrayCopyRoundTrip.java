package dev.quiver.benchmarks;

import dev.quiver.Copies;
import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.lang.foreign.MemorySegment;

/**
 * An int64 array's round trip through a device with warm pools ({@link #copies}: {@code copyTo} +
 * {@code copyToHost}, each completing before it returns), beside the same bytes between reused buffers, once
 * with one host wait for both copies ({@link #reusedBuffers}, the round trip of {@link CopyBandwidth}) and once
 * with a wait after each ({@link #reusedBuffersEachWaited}: what the two array copies promise). On
 * implementations that run commands on a worker thread (PoCL), each host wait is a hand-off to it and back.
 *
 * <p>State is per benchmark thread; nothing is shared between threads.
 */
public class ArrayCopyRoundTrip extends BenchmarkState {
    /** Device under test: PoCL's OpenCL device or lavapipe's Vulkan device. */
    @Param({"opencl", "vulkan"})
    public String backend;
    /** Bytes of the array's values. */
    @Param({"1048576", "16777216"})
    public long size;

    private MemorySegment pageable;
    private DeviceArray source;
    private DeviceBuffer buffer;
    private Device device;
    private DeviceStream stream;

    /** Builds the host array and the reused device buffer, and warms the pools with one round trip. */
    @Override
    protected void setUp() {
        Device host = device("cpu");
        device = device(backend);
        pageable = filled(size, 3);
        DeviceBuffer values = host.allocate(size);
        values.asSegment().fill((byte) 5);
        source = ArrayBuilder.of(Field.of("values", new ArrowType.Int(64, true), false), host)
                .length(size / Long.BYTES).nullCount(0).absentBuffer().buffer(values).build();
        buffer = device.allocate(size);
        stream = device.defaultStream();
        copies();
    }

    /** Frees what setUp made. */
    @Override
    protected void tearDown() {
        source.close();
        buffer.close();
    }

    /**
     * @return the length of the copy back
     */
    @Benchmark
    public long copies() {
        try (DeviceArray onDevice = Copies.toDevice(source, device); DeviceArray back = Copies.toHost(onDevice)) {
            return back.length();
        }
    }

    /** Host -> device -> host between reused buffers, one host wait. */
    @Benchmark
    public void reusedBuffers() {
        buffer.copyFromHost(pageable, 0, stream);
        buffer.copyToHost(0, pageable, stream);
        stream.synchronize();
    }

    /** Host -> device, wait, device -> host, wait, between reused buffers. */
    @Benchmark
    public void reusedBuffersEachWaited() {
        buffer.copyFromHost(pageable, 0, stream);
        stream.synchronize();
        buffer.copyToHost(0, pageable, stream);
        stream.synchronize();
    }
}
