package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loopback throughput of one {@code DoGet} stream, in one run: the raw TCP floor (the same bytes through a
 * socket pair, {@link TcpFloor}), plain Arrow Java Flight (Arrow Java's writer and {@code FlightClient}, reading
 * every batch) and Quiver's own path ({@link DeviceFlightServer} to {@link DeviceFlightClient#get} onto the CPU,
 * closing every batch), served by a {@link BenchServer} in a child JVM, for int64 and utf8 columns and each batch
 * size. Each case runs {@code warm-up} times, then {@code runs} times, interleaved; the table has the median MiB/s
 * (of Arrow buffer bytes), Quiver's ratios to the floor and to plain Arrow Java, and the heap the benchmark JVM
 * allocated per batch (all threads, over the measured runs) for each Flight case. Arguments: MiB per stream,
 * warm-up runs, measured runs, then batch sizes in MiB (defaults 256, 1, 3, then 1 8 64 256).
 */
public final class FlightThroughput {
    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private FlightThroughput() {}

    /**
     * @param args MiB per stream, warm-up runs, measured runs, batch sizes in MiB
     * @throws Exception if the server cannot start or a transfer fails
     */
    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<String> sizes = args.length > 3 ? List.of(args).subList(3, args.length) : List.of("1", "8", "64", "256");
        List<String> serverArgs = new ArrayList<>(List.of(String.valueOf(total)));
        serverArgs.addAll(sizes);
        try (ChildServer server = ChildServer.start(BenchServer.class, serverArgs.toArray(String[]::new));
             BufferAllocator allocator = new RootAllocator();
             FlightClient plain = FlightClient.builder(allocator, server.location()).build();
             DeviceFlightClient quiver = DeviceFlightClient.builder(server.location(), allocator).build()) {
            System.out.printf(Locale.ROOT, "one DoGet stream of %d MiB a case on loopback; %d warm-up and %d measured runs, interleaved%n%n",
                    total, warmUp, runs);
            System.out.println("| column | batch | batches | TCP floor MiB/s | plain Arrow Java MiB/s | Quiver MiB/s | Quiver / floor | Quiver / plain"
                    + " | heap per batch, plain | heap per batch, Quiver |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|");
            for (String type : BenchBatches.TYPES) {
                for (String size : sizes) {
                    int mib = Integer.parseInt(size);
                    Ticket plainTicket = new Ticket(BenchBatches.name("plain", type, mib).getBytes(StandardCharsets.UTF_8));
                    Ticket quiverTicket = quiver.info(BenchBatches.name("quiver", type, mib)).getEndpoints().getFirst().getTicket();
                    row(type, mib, Math.max(1, total / mib), plain, plainTicket, quiver, quiverTicket, warmUp, runs);
                }
            }
        }
    }

    private static void row(String type, int mib, int batches, FlightClient plain, Ticket plainTicket, DeviceFlightClient quiver, Ticket quiverTicket,
                            int warmUp, int runs) {
        long bytes = plain(plain, plainTicket);
        List<Double> floor = new ArrayList<>();
        List<Double> plainRates = new ArrayList<>();
        List<Double> quiverRates = new ArrayList<>();
        long plainHeap = 0;
        long quiverHeap = 0;
        for (int run = 0; run < warmUp + runs; run++) {
            double floorSeconds = TcpFloor.seconds(bytes);
            long heap = THREADS.getTotalThreadAllocatedBytes();
            long start = System.nanoTime();
            plain(plain, plainTicket);
            double plainSeconds = (System.nanoTime() - start) / 1e9;
            long afterPlain = THREADS.getTotalThreadAllocatedBytes();
            start = System.nanoTime();
            quiver(quiver, quiverTicket);
            double quiverSeconds = (System.nanoTime() - start) / 1e9;
            long afterQuiver = THREADS.getTotalThreadAllocatedBytes();
            if (run >= warmUp) {
                floor.add(bytes / floorSeconds / (1 << 20));
                plainRates.add(bytes / plainSeconds / (1 << 20));
                quiverRates.add(bytes / quiverSeconds / (1 << 20));
                plainHeap += afterPlain - heap;
                quiverHeap += afterQuiver - afterPlain;
            }
        }
        double f = median(floor);
        double p = median(plainRates);
        double q = median(quiverRates);
        System.out.printf(Locale.ROOT, "| %s | %d MiB | %d | %.0f | %.0f | %.0f | %.2f | %.2f | %s | %s |%n", type, mib, batches, f, p, q, q / f, q / p,
                perBatch(plainHeap, (long) runs * batches), perBatch(quiverHeap, (long) runs * batches));
    }

    private static String perBatch(long heap, long batches) {
        double bytes = heap / (double) batches;
        return bytes >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20)) : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
    }

    /** Receives a plain stream with Arrow Java alone; returns the bytes of its buffers. */
    private static long plain(FlightClient client, Ticket ticket) {
        long bytes = 0;
        try (FlightStream stream = client.getStream(ticket)) {
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

    /** Receives a stream on Quiver's path onto the CPU, closing each batch; returns its row count. */
    private static long quiver(DeviceFlightClient client, Ticket ticket) {
        long rows = 0;
        try (DeviceArrayStream stream = client.get(ticket, Devices.system().cpu())) {
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    rows += batch.length();
                }
            }
        }
        return rows;
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
