package dev.quiver.cli.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorImport;
import dev.quiver.cli.GeneratedBatches;
import dev.quiver.cli.bench.FlightRate;
import dev.quiver.cli.bench.SocketFloor;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The work of {@code quiver bench --flight}: for each batch size, one {@code DoGet} stream of the generated batches
 * ({@link GeneratedBatches}, built once per size with the bulk builders; {@value #STREAM_MIB} MiB a stream, at least
 * one batch) on loopback, in this JVM, three ways: the raw TCP floor (the same bytes through a socket pair,
 * {@link SocketFloor}), plain Arrow Java Flight on both sides (a {@code FlightServer} writing the batches as Arrow
 * Java vectors, a {@code FlightClient} reading every batch), and Quiver's path on both sides (a
 * {@link DeviceFlightServer} serving a {@link DeviceFlightProducer}, a {@link DeviceFlightClient} landing every batch on
 * the CPU and closing it). Each path runs {@value #WARM_UP} times to warm up, then {@value #RUNS} times, interleaved,
 * so that load from other processes falls on all three alike. Server and client share this JVM and its cores.
 * Runs on the calling thread, plus the servers' and the floor's threads; everything it starts is closed before it
 * returns.
 */
public final class FlightBench {
    /** MiB of a stream at least: smaller batches come several to a stream. */
    public static final int STREAM_MIB = 64;
    /** Warm-up runs of each path. */
    public static final int WARM_UP = 2;
    /** Measured runs of each path. */
    public static final int RUNS = 5;
    /** Bytes a generated row takes, about: int64 id, float64 value, a utf8 name of 10 to 12 bytes and its offset. */
    private static final int ROW_BYTES = 30;

    private FlightBench() {}

    /**
     * @param sizesMib batch sizes in MiB, each at least 1
     * @param progress receives a line as each size is done
     * @return per size, the floor, plain Arrow Java and Quiver, in that order
     * @throws Exception if a server cannot start or a transfer fails
     */
    public static List<FlightRate> run(List<Integer> sizesMib, PrintStream progress) throws Exception {
        List<FlightRate> rates = new ArrayList<>();
        Devices devices = Devices.system();
        SocketFloor floor = new SocketFloor();
        for (int mib : sizesMib) {
            int batches = Math.max(1, STREAM_MIB / mib);
            long rowsPerBatch = ((long) mib << 20) / ROW_BYTES;
            try (GeneratedBatches generated = new GeneratedBatches(rowsPerBatch * batches, batches);
                 BufferAllocator allocator = new RootAllocator();
                 PlainBatches plain = new PlainBatches(generated, allocator);
                 FlightServer plainServer = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), plain).build().start();
                 DeviceFlightProducer producer = new DeviceFlightProducer(allocator, devices.cpu(), devices);
                 DeviceFlightServer quiverServer = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
                 FlightClient plainClient = FlightClient.builder(allocator, plainServer.getLocation()).build();
                 DeviceFlightClient quiverClient = DeviceFlightClient.builder(quiverServer.getLocation(), allocator).build()) {
                Ticket ticket = producer.serve("bench", generated.schema(), generated.rows(), () -> DeviceArrayStream.of(generated.schema(),
                        DeviceType.CPU, IntStream.range(0, batches).mapToObj(generated::batch).iterator()));
                long bytes = plain.bytes();
                double[][] seconds = new double[3][RUNS];
                for (int run = 0; run < WARM_UP + RUNS; run++) {
                    double f = floor.seconds(bytes);
                    double p = timed(() -> readPlain(plainClient));
                    double q = timed(() -> readQuiver(quiverClient, ticket, devices));
                    if (run >= WARM_UP) {
                        seconds[0][run - WARM_UP] = f;
                        seconds[1][run - WARM_UP] = p;
                        seconds[2][run - WARM_UP] = q;
                    }
                }
                String[] paths = {"TCP floor", "plain Arrow Java", "Quiver to CPU"};
                for (int i = 0; i < paths.length; i++) {
                    rates.add(FlightRate.of(mib, batches, bytes, paths[i], seconds[i]));
                }
                FlightRate last = rates.getLast();
                progress.printf("quiver bench --flight: %d MiB batches done, Quiver %.0f MiB/s, %.2f of the floor%n", mib, last.median(),
                        last.toFloor(rates.get(rates.size() - 3)));
                progress.flush();
            }
        }
        return rates;
    }

    private static double timed(Runnable transfer) {
        long start = System.nanoTime();
        transfer.run();
        return (System.nanoTime() - start) / 1e9;
    }

    private static void readPlain(FlightClient client) {
        try (FlightStream stream = client.getStream(PlainBatches.TICKET)) {
            while (stream.next()) {
                stream.getRoot().getRowCount();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the plain Arrow Java stream failed: " + e.getMessage(), e);
        }
    }

    private static void readQuiver(DeviceFlightClient client, Ticket ticket, Devices devices) {
        try (DeviceArrayStream stream = client.get(ticket, devices.cpu())) {
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    batch.length();
                }
            }
        }
    }

    /**
     * Plain Arrow Java's side: the generated batches as Arrow Java vectors (sharing their memory), written the way
     * Arrow's own examples do (one root, each batch loaded into it and put without waiting). Owns the vectors; any
     * thread (each call loads into a root of its own).
     */
    private static final class PlainBatches extends NoOpFlightProducer implements AutoCloseable {
        static final Ticket TICKET = new Ticket("bench".getBytes(StandardCharsets.UTF_8));
        private final List<VectorSchemaRoot> roots = new ArrayList<>();
        private final BufferAllocator allocator;

        PlainBatches(GeneratedBatches generated, BufferAllocator allocator) {
            this.allocator = allocator;
            try {
                for (int i = 0; i < generated.batches(); i++) {
                    roots.add(VectorImport.toVectorSchemaRoot(generated.batch(i), allocator, null));
                }
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        /** {@return the bytes of every batch's buffers, as Arrow Java counts them} */
        long bytes() {
            long bytes = 0;
            for (VectorSchemaRoot root : roots) {
                for (FieldVector vector : root.getFieldVectors()) {
                    bytes += vector.getBufferSize();
                }
            }
            return bytes;
        }

        @Override
        public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
            try (VectorSchemaRoot out = VectorSchemaRoot.create(roots.getFirst().getSchema(), allocator)) {
                listener.start(out);
                VectorLoader loader = new VectorLoader(out);
                for (VectorSchemaRoot root : roots) {
                    try (ArrowRecordBatch records = new VectorUnloader(root).getRecordBatch()) {
                        loader.load(records);
                    }
                    if (listener.isCancelled()) {
                        return;
                    }
                    listener.putNext();
                }
                listener.completed();
            }
        }

        @Override
        public void close() {
            roots.forEach(VectorSchemaRoot::close);
            roots.clear();
        }
    }
}
