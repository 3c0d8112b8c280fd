package dev.quiver.cli;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
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
import dev.quiver.baselines.BenchBatches;
import dev.quiver.baselines.CBaselines;
import dev.quiver.cli.bench.Comparison;
import dev.quiver.cli.bench.FlightRate;
import dev.quiver.cli.flight.FlightBench;
import dev.quiver.cli.bench.Sampler;
import dev.quiver.stream.DeviceArrayStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver bench}: a short, in-process version of the JMH benchmarks (see benchmarks/README.md) that
 * prints Quiver's times next to the same work done in C, and their ratio. Each operation is warmed up until
 * its timings settle, then Quiver and its baseline are sampled alternately ({@link Sampler}); every figure is
 * a median with its quartiles, and a row whose ratio spreads too wide, or whose warm-up never settled, is
 * flagged. Each row is announced on standard error as it finishes ({@link BenchProgress}); {@code --json} prints
 * the same as JSON. Needs a C compiler for the baselines. Runs on the main
 * thread; takes about a minute, more on a loaded machine.
 *
 * <p>{@code --memory} times memory moves instead ({@link MemoryBench}); {@code --flight} times one Arrow Flight
 * {@code DoGet} stream per size on loopback against the raw TCP floor and plain Arrow Java
 * ({@code dev.quiver.cli.flight.FlightBench}, {@link FlightBenchText}). Flight is optional in the CLI: it runs on the
 * class path, which the launcher arranges for {@code bench --flight} as for {@code flight}; without it,
 * {@code --flight} says so and exits with 1.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Time export/import, copies, events and streams against the same work in C (short version of the JMH benchmarks).")
final class BenchCommand implements Callable<Integer> {
    private static final Devices NONE = Devices.cpuOnly();
    private static final int C_ITERATIONS = 100;
    private static final int STREAM_BATCHES = 1_000;

    @Option(names = "--json", description = "Print the results as JSON (times in nanoseconds per operation, with quartiles, extremes and flags).")
    boolean json;

    @Option(names = "--wide", description = "One line per benchmark, with the quartiles of every time, however wide "
            + "(by default the table keeps to 100 columns).")
    boolean wide;

    @Option(names = "--memory", description = "Time memory instead: round trips from pageable and pinned memory, copyTo with and without pools, allocation and events, per device, against C on the vendor API.")
    boolean memory;

    @Option(names = "--flight", description = "Time Arrow Flight instead: one DoGet stream per --sizes batch size on loopback, in this "
            + "process, through a raw TCP socket pair (the floor), plain Arrow Java Flight and Quiver's Flight client onto the CPU.")
    boolean flight;

    @Option(names = "--sizes", split = ",", paramLabel = "MIB", defaultValue = "1,16,256",
            description = "Round-trip sizes of --memory, batch sizes of --flight, in MiB (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    private final Sampler sampler = Sampler.standard();
    private final List<BenchRow> rows = new BenchProgress(System.err);

    @Override
    public Integer call() throws Exception {
        double loadBefore = loadAverage();
        if (memory && flight) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--memory and --flight are two runs: give one");
        }
        if (flight) {
            return flight(loadBefore);
        }
        if (memory) {
            if (sizes.stream().anyMatch(size -> size < 1 || size > 4096)) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "--sizes must be between 1 and 4096 MiB: " + sizes);
            }
            new MemoryBench(Sampler.forMemory(), Devices.system(), rows).run(sizes);
            return report(loadBefore);
        }
        exportImport("int32", 1);
        exportImport("int32", 64);
        exportImport("struct", 64);
        Devices devices = Devices.system();
        for (Device device : devices.all()) {
            for (long size : new long[] {1 << 20, 16 << 20}) {
                copies(device, size);
            }
        }
        devices.find(DeviceType.OPENCL, 0).ifPresent(this::events);
        streams();
        return report(loadBefore);
    }

    private int flight(double loadBefore) throws Exception {
        if (sizes.stream().anyMatch(size -> size < 1 || size > 1024)) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--sizes of --flight must be between 1 and 1024 MiB: " + sizes);
        }
        if (BenchCommand.class.getClassLoader().getResource("dev/quiver/flight/DeviceFlightServer.class") == null) {
            System.err.println("quiver bench: --flight needs Quiver's Flight module and Arrow Flight on the class path, "
                    + "which the quiver launcher puts there for bench --flight (cli/target/lib-flight)");
            return 1;
        }
        List<FlightRate> rates = FlightBench.run(sizes, System.err);
        int cores = Runtime.getRuntime().availableProcessors();
        if (json) {
            System.out.println(FlightBenchText.json(rates, cores, loadBefore, loadAverage(), FlightBench.WARM_UP, FlightBench.RUNS));
        } else {
            FlightBenchText.print(rates, cores, loadBefore, loadAverage(), FlightBench.WARM_UP, FlightBench.RUNS, System.out);
        }
        return 0;
    }

    private int report(double loadBefore) {
        int cores = Runtime.getRuntime().availableProcessors();
        if (json) {
            System.out.println(BenchJson.of(rows, cores, loadBefore, loadAverage()));
        } else {
            printTable(cores, loadBefore);
        }
        return 0;
    }

    private void printTable(int cores, double loadBefore) {
        String intro = String.format("quiver bench: load average %.1f before, %.1f after, on %d cores. Each operation "
                + "warmed up until its timings settled, then sampled alternately with its baseline; times are medians%s. "
                + "RATIO = Quiver time / baseline time, median of neighbouring samples and its quartiles (lower is "
                + "better). FLAG: ratios whose quartiles spread more than +-%.0f%%, and warm-ups that never settled. "
                + "The JMH benchmarks (benchmarks/README.md) are the reference figures; docs/PERFORMANCE.md records them.",
                loadBefore, loadAverage(), cores, wide ? " [quartiles]" : " (--wide adds their quartiles)",
                50 * Comparison.WIDE_SPREAD);
        Wrap.lines(intro, BenchText.WIDTH).forEach(System.out::println);
        BenchText.print(rows, wide, System.out);
    }

    private void exportImport(String shape, int columns) {
        try (Arena arena = Arena.ofConfined(); DeviceArray batch = BenchBatches.batch(shape, columns, 1_000).toDeviceArray(NONE)) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            MemorySegment view = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment viewSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportShared(batch, view, viewSchema);
            try {
                MemorySegment cArray = view.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
                Comparison comparison = sampler.compare(() -> {
                    Interchange.exportShared(batch, array, schema);
                    Interchange.importDevice(array, schema, ImportOptions.on(NONE)).close();
                }, 1, () -> CBaselines.exportImportRelease(cArray, viewSchema, C_ITERATIONS), C_ITERATIONS);
                rows.add(new BenchRow("export+import+release " + columns + " x " + shape + ", 1000 rows", "C", comparison));
            } finally {
                Interchange.importDevice(view, viewSchema, ImportOptions.on(NONE)).close();
            }
        }
    }

    private void copies(Device device, long size) {
        try (Arena arena = Arena.ofConfined(); DeviceBuffer buffer = device.allocate(size)) {
            MemorySegment host = arena.allocate(size, 64).fill((byte) 3);
            MemorySegment other = arena.allocate(size, 64);
            DeviceStream stream = device.defaultStream();
            Sampler.Operation quiver = () -> {
                buffer.copyFromHost(host, 0, stream);
                buffer.copyToHost(0, host, stream);
                stream.synchronize();
            };
            String what = "copy round trip " + (size >> 20) + " MiB, " + device.type();
            rows.add(new BenchRow(what, "memcpy", sampler.compare(quiver, 1, () -> CBaselines.memcpyRoundTrip(host, other, size, 1), 1)));
            if (device.type().equals(DeviceType.OPENCL)) {
                CBaselines.openOpenCl();
                rows.add(new BenchRow(what, "OpenCL from C", sampler.compare(quiver, 1, () -> CBaselines.openClRoundTrip(host, size, 1), 1)));
            }
        }
    }

    private void events(Device device) {
        CBaselines.openOpenCl();
        DeviceStream stream = device.defaultStream();
        Comparison comparison = sampler.compare(() -> {
            try (SyncEvent event = stream.recordEvent()) {
                event.waitOnHost();
            }
        }, 1, () -> CBaselines.openClEvents(10), 10);
        rows.add(new BenchRow("event record + host wait, OPENCL", "C", comparison));
    }

    private void streams() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            Comparison comparison = sampler.compare(() -> {
                CBaselines.produceStream(stream, STREAM_BATCHES);
                try (DeviceArrayStream imported = DeviceArrayStream.importFrom(stream, ImportOptions.on(NONE))) {
                    while (imported.hasNext()) {
                        imported.next().close();
                    }
                }
            }, STREAM_BATCHES, () -> {
                CBaselines.produceStream(stream, STREAM_BATCHES);
                CBaselines.drainStream(stream);
            }, STREAM_BATCHES);
            rows.add(new BenchRow("stream: Java pulls a batch from C", "C pulls from C", comparison));
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
