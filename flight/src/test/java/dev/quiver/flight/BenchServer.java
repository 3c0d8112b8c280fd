package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The server of {@link FlightThroughput}, in a child JVM, given the same {@link BenchOptions}: for each column type
 * and batch size one batch, made once, and for each {@link BenchCase} its batches served again and again, by plain
 * Arrow Java Flight (one stream per part, ticket {@link BenchCase#plainTicket}) and by a
 * {@link DeviceFlightProducer} behind a {@link DeviceFlightServer}, whose {@code DoGet} is Quiver's own path (stream
 * {@link BenchCase#quiverName}, one endpoint per part).
 *
 * <p><b>Protocol</b> (standard output is for it alone): once every batch is made, one line
 * {@code batch TYPE SIZE BUFFER_BYTES} per batch, then {@code listening PORT}. Then each line {@code heap} on
 * standard input is answered with {@code heap BYTES}, the heap this JVM's threads have allocated so far, so that
 * the parent can tell what a transfer cost the server. Exits when its standard input closes.
 *
 * <p>Threading: the main thread builds, then answers the protocol; Flight serves calls on its own threads.
 */
public final class BenchServer {
    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private BenchServer() {}

    /**
     * @param args {@link BenchOptions#serverArgs()}
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        BufferAllocator allocator = new RootAllocator();
        Devices devices = Devices.system();
        DeviceFlightProducer quiver = new DeviceFlightProducer(allocator, devices.cpu(), devices);
        Map<String, FlightProducer> plain = new HashMap<>();
        Map<String, VectorSchemaRoot> roots = new LinkedHashMap<>();
        Map<String, DeviceArray> exported = new HashMap<>();
        for (BenchCase c : options.cases()) {
            String key = c.type() + " " + c.batchBytes();
            VectorSchemaRoot root = roots.computeIfAbsent(key, k -> BenchBatches.batch(c.type(), c.batchBytes(), allocator));
            DeviceArray batch = exported.computeIfAbsent(key, k -> VectorExport.toDeviceArray(root, null, allocator));
            List<Supplier<DeviceArrayStream>> parts = new ArrayList<>();
            for (int part = 0; part < c.streams(); part++) {
                plain.put(c.plainName(part), new PlainFlightProducer(Collections.nCopies(c.perStream(), root), allocator));
                parts.add(() -> DeviceArrayStream.of(batch.field(), DeviceType.CPU,
                        IntStream.range(0, c.perStream()).mapToObj(n -> batch.slice(0, batch.length())).iterator()));
            }
            quiver.serve(c.quiverName(), batch.field(), batch.length() * c.batches(), parts);
        }
        FlightProducer served = new NoOpFlightProducer() {
            @Override
            public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
                FlightProducer producer = plain.get(new String(ticket.getBytes(), StandardCharsets.UTF_8));
                (producer == null ? quiver : producer).getStream(context, ticket, listener);
            }

            @Override
            public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
                return quiver.getFlightInfo(context, descriptor);
            }
        };
        DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), quiver).served(served).build().start();
        roots.forEach((key, root) -> System.out.println("batch " + key + " " + BenchBatches.bufferBytes(root)));
        System.out.println("listening " + server.getPort());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("heap")) {
                System.out.println("heap " + THREADS.getTotalThreadAllocatedBytes());
                System.out.flush();
            }
        }
        System.exit(0);
    }
}
