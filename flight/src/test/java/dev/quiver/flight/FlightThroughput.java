package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Loopback throughput of Quiver over Flight against plain Arrow Java Flight on the same batches, served by a
 * {@link BenchServer} in a child JVM: plain Arrow Java client and server; Quiver's server and client landing
 * on the CPU; landing on OpenCL; served from OpenCL. Each case runs {@code warm-up} times, then
 * {@code runs} times, interleaved; it prints the median MiB/s (of the batches' buffer bytes as Arrow Java holds
 * them) with the min-max spread, and each median's ratio to plain Arrow Java, as a Markdown table. Arguments:
 * batches, rows per batch, warm-up runs, measured runs (defaults 32, 262144, 3, 7).
 */
public final class FlightThroughput {
    private FlightThroughput() {}

    /**
     * @param args batches, rows per batch, warm-up runs, measured runs
     * @throws Exception if the server cannot start or a transfer fails
     */
    public static void main(String[] args) throws Exception {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 262_144;
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 7;
        Devices devices = Devices.system();
        Device cpu = devices.cpu();
        Device opencl = devices.get(DeviceType.OPENCL, 0);
        try (ChildServer server = ChildServer.start(BenchServer.class, String.valueOf(batches), String.valueOf(rows));
             BufferAllocator allocator = new RootAllocator();
             FlightClient plain = FlightClient.builder(allocator, server.location()).build();
             DeviceFlightClient quiver = DeviceFlightClient.builder(server.location(), allocator).build()) {
            Ticket fromCpu = quiver.info("quiver-cpu").getEndpoints().getFirst().getTicket();
            Ticket fromOpenCl = quiver.info("quiver-opencl").getEndpoints().getFirst().getTicket();
            Map<String, ToLongFunction<Void>> cases = new LinkedHashMap<>();
            cases.put("plain Arrow Java Flight (CPU to CPU)", v -> plain(plain));
            cases.put("Quiver, CPU to CPU", v -> landed(quiver, fromCpu, cpu));
            cases.put("Quiver, CPU to OpenCL", v -> landed(quiver, fromCpu, opencl));
            cases.put("Quiver, OpenCL to CPU", v -> landed(quiver, fromOpenCl, cpu));
            cases.put("Quiver, OpenCL to OpenCL", v -> landed(quiver, fromOpenCl, opencl));
            List<DeviceArray> local = new ArrayList<>();
            for (int b = 0; b < batches; b++) {
                try (VectorSchemaRoot root = BenchBatches.batch(b, rows, allocator)) {
                    local.add(VectorExport.toDeviceArray(root, null, allocator));
                }
            }
            cases.put("Quiver put, CPU to the server's CPU", v -> put(quiver, local));
            long bytes = plain(plain);
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            for (int run = 0; run < warmUp + runs; run++) {
                for (Map.Entry<String, ToLongFunction<Void>> c : cases.entrySet()) {
                    long start = System.nanoTime();
                    c.getValue().applyAsLong(null);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    if (run >= warmUp) {
                        rates.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(bytes / seconds / (1 << 20));
                    }
                }
            }
            print(batches, rows, bytes, warmUp, runs, rates);
            local.forEach(DeviceArray::close);
        }
    }

    /** Puts the client's batches (zero-copy slices, which the put consumes) as one stream; returns their rows. */
    private static long put(DeviceFlightClient client, List<DeviceArray> batches) {
        Iterator<DeviceArray> slices = batches.stream().map(batch -> batch.slice(0, batch.length())).iterator();
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, slices).exportTo(out);
            client.put("bench-put", DeviceArrayStream.importFrom(out));
        }
        return batches.stream().mapToLong(DeviceArray::length).sum();
    }

    /** Receives the plain stream with Arrow Java alone; returns the bytes of its buffers. */
    private static long plain(FlightClient client) {
        long bytes = 0;
        try (FlightStream stream = client.getStream(TestProducer.PLAIN)) {
            while (stream.next()) {
                for (FieldVector vector : stream.getRoot().getFieldVectors()) {
                    bytes += vector.getBufferSize();
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the plain stream failed", e);
        }
        return bytes;
    }

    /** Receives a stream through Quiver onto {@code target}, closing each batch; returns its row count. */
    private static long landed(DeviceFlightClient client, Ticket ticket, Device target) {
        long rows = 0;
        try (DeviceArrayStream stream = client.get(ticket, target)) {
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    rows += batch.length();
                }
            }
        }
        return rows;
    }

    private static void print(int batches, int rows, long bytes, int warmUp, int runs, Map<String, List<Double>> rates) {
        System.out.printf(Locale.ROOT, "%d batches x %d rows (int64, float64, utf8), %.1f MiB per stream; %d warm-up and %d measured runs per case%n%n",
                batches, rows, bytes / (double) (1 << 20), warmUp, runs);
        System.out.println("| case | MiB/s, median [min-max] | / plain Arrow Java |");
        System.out.println("|---|---|---|");
        double plainMedian = median(rates.values().iterator().next());
        for (Map.Entry<String, List<Double>> e : rates.entrySet()) {
            double[] sorted = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = median(e.getValue());
            System.out.printf(Locale.ROOT, "| %s | %.0f [%.0f-%.0f] | %.2f |%n", e.getKey(), median, sorted[0], sorted[sorted.length - 1], median / plainMedian);
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
