package dev.quiver.cli;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.SyncEvent;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.cli.bench.BenchBatches;
import dev.quiver.cli.bench.CBaselines;
import dev.quiver.cli.bench.Measure;
import dev.quiver.stream.DeviceArrayStream;
import picocli.CommandLine.Command;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver bench}: a short, in-process version of the JMH benchmarks (see benchmarks/README.md) that
 * prints Quiver's times next to the same work done in C, and their ratio. Needs a C compiler for the
 * baselines. Runs on the main thread; takes about half a minute.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Time export/import, copies, events and streams against the same work in C (short version of the JMH benchmarks).")
final class BenchCommand implements Callable<Integer> {
    private static final Devices NONE = Devices.of(List.of(), BackendSelection.all());
    private static final int C_ITERATIONS = 100;
    private static final int STREAM_BATCHES = 1_000;

    @Override
    public Integer call() {
        Table table = new Table("BENCHMARK", "QUIVER", "BASELINE", "BASELINE TIME", "RATIO");
        exportImport(table, "int32", 1);
        exportImport(table, "int32", 64);
        exportImport(table, "struct", 64);
        Devices devices = Devices.system();
        for (Device device : devices.all()) {
            for (long size : new long[] {1 << 20, 16 << 20}) {
                copies(table, device, size);
            }
        }
        devices.find(DeviceType.OPENCL, 0).ifPresent(device -> events(table, device));
        streams(table);
        System.out.println("quiver bench: median of 5 samples after warm-up; RATIO = Quiver time / baseline time (lower is better).");
        System.out.println("The JMH benchmarks (benchmarks/README.md) are the reference figures; docs/PERFORMANCE.md records them.");
        table.print(System.out);
        return 0;
    }

    private static void exportImport(Table table, String shape, int columns) {
        try (Arena arena = Arena.ofConfined(); DeviceArray batch = BenchBatches.batch(shape, columns, 1_000).toDeviceArray(NONE)) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Measure quiver = Measure.of(() -> {
                batch.exportShared(array, schema);
                DeviceArray.importFrom(array, schema, NONE).close();
            }, 1);
            MemorySegment view = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment viewSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            batch.exportShared(view, viewSchema);
            try {
                MemorySegment cArray = view.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
                Measure c = Measure.of(() -> CBaselines.exportImportRelease(cArray, viewSchema, C_ITERATIONS), C_ITERATIONS);
                row(table, "export+import+release " + columns + " x " + shape + ", 1000 rows", quiver, "C", c);
            } finally {
                DeviceArray.importFrom(view, viewSchema, NONE).close();
            }
        }
    }

    private static void copies(Table table, Device device, long size) {
        try (Arena arena = Arena.ofConfined(); DeviceBuffer buffer = device.allocate(size)) {
            MemorySegment host = arena.allocate(size, 64).fill((byte) 3);
            MemorySegment other = arena.allocate(size, 64);
            DeviceStream stream = device.defaultStream();
            Measure quiver = Measure.of(() -> {
                buffer.copyFromHost(host, 0, stream);
                buffer.copyToHost(0, host, stream);
                stream.synchronize();
            }, 1);
            String what = "copy round trip " + (size >> 20) + " MiB, " + device.type();
            row(table, what, quiver, "memcpy", Measure.of(() -> CBaselines.memcpyRoundTrip(host, other, size, 1), 1));
            if (device.type().equals(DeviceType.OPENCL)) {
                CBaselines.openOpenCl();
                row(table, what, quiver, "OpenCL from C", Measure.of(() -> CBaselines.openClRoundTrip(host, size, 1), 1));
            }
        }
    }

    private static void events(Table table, Device device) {
        CBaselines.openOpenCl();
        DeviceStream stream = device.defaultStream();
        Measure quiver = Measure.of(() -> {
            try (SyncEvent event = stream.recordEvent()) {
                event.waitOnHost();
            }
        }, 1);
        row(table, "event record + host wait, OPENCL", quiver, "C", Measure.of(() -> CBaselines.openClEvents(10), 10));
    }

    private static void streams(Table table) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            Measure quiver = Measure.of(() -> {
                CBaselines.produceStream(stream, STREAM_BATCHES);
                try (DeviceArrayStream imported = DeviceArrayStream.importFrom(stream, NONE)) {
                    while (imported.hasNext()) {
                        imported.next().close();
                    }
                }
            }, STREAM_BATCHES);
            Measure c = Measure.of(() -> {
                CBaselines.produceStream(stream, STREAM_BATCHES);
                CBaselines.drainStream(stream);
            }, STREAM_BATCHES);
            row(table, "stream: Java pulls a batch from C", quiver, "C pulls from C", c);
        }
    }

    private static void row(Table table, String what, Measure quiver, String baseline, Measure base) {
        table.row(what, quiver.text(), baseline, base.text(), String.format("%.2f", quiver.medianNanos() / base.medianNanos()));
    }
}
