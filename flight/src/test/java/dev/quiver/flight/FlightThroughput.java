package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.lang.management.ManagementFactory;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Loopback throughput of {@code DoGet}, in one run: the raw TCP floor (the same bytes through socket pairs,
 * {@link TcpFloor}), plain Arrow Java Flight (Arrow Java's writer and {@code FlightClient}, reading every batch) and
 * Quiver's own path ({@link DeviceFlightServer} to {@link DeviceFlightClient#get} onto the CPU and each other target
 * device, closing every batch), served by a {@link BenchServer} in a child JVM, for each column type, batch size and
 * stream count of its {@link BenchOptions} ({@link BenchPath} says how each path uses several streams). Each case
 * runs every path {@code warm-up} times, then {@code runs} times, interleaved; the table (Markdown, on standard
 * output) has the median MiB/s of Arrow buffer bytes, Quiver's ratios to the floor and to plain Arrow Java, and
 * the heap allocated per batch on the client (this JVM) and the server (the child), all threads, over the measured
 * runs. A path that fails (plain Arrow Java out of heap on a 1 GiB batch, say) is reported in its cell and not run
 * again for that case; the run goes on. With {@code --csv PATH} every measurement is also written as CSV
 * ({@link BenchReport#CSV_HEADER}), which {@code scripts/plot-flight} draws. Runs on the main thread, plus the
 * floor's and the plain streams' threads.
 */
public final class FlightThroughput {
    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private FlightThroughput() {}

    /**
     * @param args the options of {@link BenchOptions}
     * @throws Exception if the server cannot start or the CSV cannot be written
     */
    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        List<BenchPath> paths = new ArrayList<>(List.of(BenchPath.floor(), BenchPath.plain()));
        List<String> absent = new ArrayList<>();
        for (String target : options.targets()) {
            Optional<Device> device = find(target);
            if (device.isPresent()) {
                paths.add(BenchPath.quiver(device.get(), target));
            } else {
                absent.add(target);
            }
        }
        int threads = Collections.max(options.streams());
        List<BenchResult> all = new ArrayList<>();
        try (BenchServerProcess server = BenchServerProcess.start(options);
             BufferAllocator allocator = new RootAllocator();
             FlightClient plain = FlightClient.builder(allocator, server.location()).build();
             DeviceFlightClient quiver = DeviceFlightClient.builder(server.location(), allocator).build();
             ExecutorService pool = Executors.newFixedThreadPool(threads, Thread.ofPlatform().daemon().name("plain-stream-", 0).factory())) {
            BenchPath.Clients clients = new BenchPath.Clients(plain, quiver, pool);
            System.out.printf(Locale.ROOT, "DoGet on loopback, %s: %s per case and path (at least one batch); %d warm-up and %d measured runs, "
                    + "interleaved; JDK %s, %d cores, load average %.1f before%n", LocalDate.now(), BenchOptions.label(options.total()), options.warmUp(),
                    options.runs(), Runtime.version(), Runtime.getRuntime().availableProcessors(), loadAverage());
            if (!absent.isEmpty()) {
                System.out.println("no device on this machine for target(s) " + absent + ": not measured");
            }
            for (long size : options.sizes()) {
                if (!options.skippedStreams(size).isEmpty()) {
                    System.out.println("batches of " + BenchOptions.label(size) + ": no case of " + options.skippedStreams(size)
                            + " streams (fewer batches than streams; raise --total)");
                }
            }
            System.out.println();
            BenchReport.header(paths, System.out);
            for (BenchCase c : options.cases()) {
                List<BenchResult> results = measure(c, paths, server, clients, options);
                BenchReport.row(results, System.out);
                all.addAll(results);
            }
            System.out.printf(Locale.ROOT, "%nload average %.1f after%n", loadAverage());
        }
        if (options.csv() != null) {
            BenchReport.csv(all, options.csv());
            System.out.println("wrote " + all.size() + " rows to " + options.csv());
        }
    }

    private static List<BenchResult> measure(BenchCase c, List<BenchPath> paths, BenchServerProcess server, BenchPath.Clients clients,
                                             BenchOptions options) throws Exception {
        long bytes = server.batchBytes(c) * c.batches();
        List<BenchResult> results = new ArrayList<>();
        for (BenchPath path : paths) {
            results.add(new BenchResult(c, path, bytes));
        }
        for (int run = 0; run < options.warmUp() + options.runs(); run++) {
            for (BenchResult result : results) {
                if (result.failed()) {
                    continue;
                }
                long serverBefore = server.heap();
                long clientBefore = THREADS.getTotalThreadAllocatedBytes();
                long start = System.nanoTime();
                try {
                    clients.run(result.path(), c, bytes);
                } catch (RuntimeException | OutOfMemoryError e) {
                    result.fail(e);
                    continue;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long clientHeap = THREADS.getTotalThreadAllocatedBytes() - clientBefore;
                long serverHeap = server.heap() - serverBefore;
                if (run >= options.warmUp()) {
                    result.add(seconds, clientHeap, serverHeap);
                }
            }
        }
        return results;
    }

    private static Optional<Device> find(String target) {
        DeviceType type = switch (target) {
            case "cpu" -> DeviceType.CPU;
            case "opencl" -> DeviceType.OPENCL;
            case "vulkan" -> DeviceType.VULKAN;
            case "cuda" -> DeviceType.CUDA;
            case "rocm" -> DeviceType.ROCM;
            default -> throw new IllegalArgumentException("no target " + target + "; there are cpu, opencl, vulkan, cuda, rocm");
        };
        Devices devices = Devices.system();
        return type.equals(DeviceType.CPU) ? Optional.of(devices.cpu()) : devices.find(type, 0);
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
