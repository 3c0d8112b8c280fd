package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.SyncEvent;
import dev.quiver.baselines.CBaselines;
import dev.quiver.baselines.CudaBaselines;
import dev.quiver.cli.bench.Sampler;
import dev.quiver.memory.MemoryPool;
import dev.quiver.memory.PinnedHostPolicy;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code quiver bench --memory}: how fast memory moves between the host and each device, next to the same work
 * written in C against the vendor API where there is a C baseline (CUDA, OpenCL), else next to the host's
 * {@code memcpy} round trip. Per device and size: round trips between reused buffers from pageable and from
 * pinned host memory; {@code copyTo} + {@code copyToHost} round trips with warm pools, and "as before" (pools
 * caching nothing, no pinned memory) against Quiver's own reused buffers, and with warm pools against reused
 * buffers whose two copies are each waited for (what those calls promise: each completes before it returns); allocation and free of 8 MB, pooled
 * and unpooled; and event record + host wait. One thread; leaves the pools' limits and the pinned-memory policy
 * as it found them.
 */
final class MemoryBench {
    private static final long MIB = 1 << 20;
    private static final long ALLOCATION = 8_000_000;
    private static final int EVENTS = 10;

    private final Sampler sampler;
    private final Devices devices;
    private final List<BenchRow> rows;

    /**
     * @param sampler how to time
     * @param devices the devices to time
     * @param rows    receives a row as each comparison finishes
     */
    MemoryBench(Sampler sampler, Devices devices, List<BenchRow> rows) {
        this.sampler = sampler;
        this.devices = devices;
        this.rows = rows;
    }

    /**
     * Times every device that is not host memory, adding rows in the order measured.
     *
     * @param sizesMib round-trip sizes in MiB
     */
    void run(List<Integer> sizesMib) {
        Device host = devices.find(DeviceType.CPU, -1)
                .orElseThrow(() -> new IllegalStateException("the memory benchmark needs the CPU backend for its host arrays"));
        for (Device device : devices.all()) {
            if (device.isHostAccessible()) {
                continue;
            }
            for (int mib : sizesMib) {
                roundTrips(device, host, mib * MIB);
            }
            allocation(device);
            events(device);
        }
    }

    /** What C does for the same round trip, or null where there is no C baseline of the device's API. */
    private Sampler.Operation cRoundTrip(Device device, MemorySegment pageable, long bytes, boolean pinned) {
        if (device.type().equals(DeviceType.CUDA) && device.id() == 0) {
            CudaBaselines.open();
            return () -> CudaBaselines.roundTrip(pageable, bytes, pinned, 1);
        }
        if (device.type().equals(DeviceType.OPENCL)) {
            return pinned ? () -> {
                CBaselines.openOpenCl((int) device.id());
                CBaselines.openClRoundTripPinned(bytes, 1);
            } : () -> {
                CBaselines.openOpenCl((int) device.id());
                CBaselines.openClRoundTrip(pageable, bytes, 1);
            };
        }
        return null;
    }

    private void roundTrips(Device device, Device host, long bytes) {
        String size = bytes / MIB + " MiB, " + device.type() + ":" + device.id();
        try (Arena arena = Arena.ofConfined(); DeviceBuffer buffer = device.allocate(bytes)) {
            MemorySegment pageable = arena.allocate(bytes, 64).fill((byte) 3);
            MemorySegment other = arena.allocate(bytes, 64);
            DeviceStream stream = device.defaultStream();
            Sampler.Operation reused = () -> {
                buffer.copyFromHost(pageable, 0, stream);
                buffer.copyToHost(0, pageable, stream);
                stream.synchronize();
            };
            Sampler.Operation c = cRoundTrip(device, pageable, bytes, false);
            Sampler.Operation memcpy = () -> CBaselines.memcpyRoundTrip(pageable, other, bytes, 1);
            rows.add(new BenchRow("round trip " + size + ", reused buffers, pageable host memory",
                    c == null ? "memcpy" : "C, pageable", sampler.compare(reused, 1, c == null ? memcpy : c, 1)));
            Optional<MemoryPool> pinnedPool = device.pinnedHostPool();
            if (pinnedPool.isPresent()) {
                PinnedHostPolicy policy = PinnedHostPolicy.current();
                PinnedHostPolicy.set(PinnedHostPolicy.ALWAYS);
                try (DeviceArray pinnedArray = hostArray(host, bytes).copyToHostOf(device)) {
                    MemorySegment pinned = pinnedArray.buffer(1).asSegment();
                    Sampler.Operation fromPinned = () -> {
                        buffer.copyFromHost(pinned, 0, stream);
                        buffer.copyToHost(0, pinned, stream);
                        stream.synchronize();
                    };
                    Sampler.Operation cPinned = cRoundTrip(device, pageable, bytes, true);
                    rows.add(new BenchRow("round trip " + size + ", reused buffers, pinned host memory",
                            cPinned == null ? "memcpy" : "C, pinned", sampler.compare(fromPinned, 1, cPinned == null ? memcpy : cPinned, 1)));
                } finally {
                    PinnedHostPolicy.set(policy);
                }
            }
            try (DeviceArray source = hostArray(host, bytes).array()) {
                Sampler.Operation copies = () -> {
                    try (DeviceArray onDevice = Copies.toDevice(source, device); DeviceArray back = Copies.toHost(onDevice)) {
                        back.length();
                    }
                };
                rows.add(new BenchRow("copyTo + copyToHost " + size + ", warm pools", "Quiver, reused buffers",
                        sampler.compare(copies, 1, reused, 1)));
                // what copyTo and copyToHost promise (each completes before it returns) costs two host waits
                Sampler.Operation eachWaited = () -> {
                    buffer.copyFromHost(pageable, 0, stream);
                    stream.synchronize();
                    buffer.copyToHost(0, pageable, stream);
                    stream.synchronize();
                };
                rows.add(new BenchRow("copyTo + copyToHost " + size + ", warm pools", "Quiver, reused buffers, each copy waited",
                        sampler.compare(copies, 1, eachWaited, 1)));
                rows.add(new BenchRow("copyTo + copyToHost " + size + ", as before (no pools, no pinning)", "Quiver, reused buffers",
                        asBefore(device, host, () -> sampler.compare(copies, 1, reused, 1))));
            }
        }
    }

    private void allocation(Device device) {
        Sampler.Operation pooled = () -> device.allocate(ALLOCATION).close();
        Sampler.Operation c;
        String baseline;
        if (device.type().equals(DeviceType.CUDA) && device.id() == 0) {
            CudaBaselines.open();
            boolean async = CudaBaselines.hasStreamOrderedAllocation();
            c = () -> CudaBaselines.allocate(ALLOCATION, async, 1);
            baseline = async ? "C, cuMemAllocAsync + cuMemFreeAsync, warm pool" : "C, cuMemAlloc + cuMemFree";
            if (async) {
                rows.add(new BenchRow("allocate + free 8 MB, " + device.type() + ":" + device.id() + ", pool", "C, cuMemAlloc + cuMemFree",
                        sampler.compare(pooled, 1, () -> CudaBaselines.allocate(ALLOCATION, false, 1), 1)));
            }
        } else if (device.type().equals(DeviceType.OPENCL)) {
            c = () -> {
                CBaselines.openOpenCl((int) device.id());
                CBaselines.openClAlloc(ALLOCATION, 1);
            };
            baseline = "C, clCreateBuffer + clReleaseMemObject";
        } else {
            return;
        }
        String what = "allocate + free 8 MB, " + device.type() + ":" + device.id();
        rows.add(new BenchRow(what + ", pool", baseline, sampler.compare(pooled, 1, c, 1)));
        rows.add(new BenchRow(what + ", no pool", baseline, asBefore(device, null, () -> sampler.compare(pooled, 1, c, 1))));
    }

    private void events(Device device) {
        Sampler.Operation c;
        if (device.type().equals(DeviceType.CUDA) && device.id() == 0) {
            CudaBaselines.open();
            c = () -> CudaBaselines.events(EVENTS);
        } else if (device.type().equals(DeviceType.OPENCL)) {
            c = () -> {
                CBaselines.openOpenCl((int) device.id());
                CBaselines.openClEvents(EVENTS);
            };
        } else {
            return;
        }
        try (DeviceStream stream = device.createStream()) {
            Sampler.Operation quiver = () -> {
                for (int i = 0; i < EVENTS; i++) {
                    try (SyncEvent event = stream.recordEvent()) {
                        event.waitOnHost();
                    }
                }
            };
            rows.add(new BenchRow("event record + host wait, created stream, " + device.type() + ":" + device.id(), "C",
                    sampler.compare(quiver, EVENTS, c, EVENTS)));
        }
    }

    /** Runs {@code work} with the pools of the device and the host caching nothing and no pinned memory. */
    private static <T> T asBefore(Device device, Device host, java.util.function.Supplier<T> work) {
        List<MemoryPool> pools = new ArrayList<>(List.of(device.memoryPool()));
        if (host != null) {
            pools.add(host.memoryPool());
        }
        device.pinnedHostPool().ifPresent(pools::add);
        long[] limits = pools.stream().mapToLong(MemoryPool::cacheLimit).toArray();
        PinnedHostPolicy policy = PinnedHostPolicy.current();
        pools.forEach(pool -> pool.setCacheLimit(0));
        PinnedHostPolicy.set(PinnedHostPolicy.NEVER);
        try {
            return work.get();
        } finally {
            PinnedHostPolicy.set(policy);
            for (int i = 0; i < pools.size(); i++) {
                pools.get(i).setCacheLimit(limits[i]);
            }
        }
    }

    /** A CPU array of one int64 column over {@code bytes} of host memory from the host's pool, filled. */
    private static HostArray hostArray(Device host, long bytes) {
        DeviceBuffer values = host.allocate(bytes);
        values.asSegment().fill((byte) 5);
        Field field = Field.of("values", new ArrowType.Int(64, true), false);
        return new HostArray(ArrayBuilder.of(field, host).length(bytes / Long.BYTES).nullCount(0).absentBuffer()
                .buffer(values).build());
    }

    /** A host array, with the one move the benchmark makes of it. */
    private record HostArray(DeviceArray array) {
        /** @return a host copy made from {@code device}'s pinned pool: copied there and back; closes this array */
        DeviceArray copyToHostOf(Device device) {
            try (array; DeviceArray onDevice = Copies.toDevice(array, device)) {
                return Copies.toHost(onDevice);
            }
        }
    }
}
