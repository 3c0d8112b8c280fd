package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The server of {@link FlightThroughput}, in a child JVM: for each column type and batch size, one batch made
 * once and served again and again, {@code total / size} times a stream, by plain Arrow Java Flight (ticket
 * {@code plain/TYPE/MiB}) and by a {@link DeviceFlightProducer} behind a {@link DeviceFlightServer}, whose
 * {@code DoGet} is Quiver's own path (stream {@code quiver/TYPE/MiB}). Prints {@code listening PORT} once every
 * batch is made. Arguments: MiB per stream, then the batch sizes in MiB. Exits when its standard input closes.
 */
public final class BenchServer {
    private BenchServer() {}

    /**
     * @param args MiB per stream, then batch sizes in MiB
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        int total = Integer.parseInt(args[0]);
        BufferAllocator allocator = new RootAllocator();
        Devices devices = Devices.system();
        DeviceFlightProducer quiver = new DeviceFlightProducer(allocator, devices.cpu(), devices);
        Map<String, FlightProducer> plain = new HashMap<>();
        for (String type : BenchBatches.TYPES) {
            for (int i = 1; i < args.length; i++) {
                int mib = Integer.parseInt(args[i]);
                int count = Math.max(1, total / mib);
                VectorSchemaRoot root = BenchBatches.batch(type, (long) mib << 20, allocator);
                plain.put(BenchBatches.name("plain", type, mib), new PlainFlightProducer(Collections.nCopies(count, root), allocator));
                DeviceArray batch = VectorExport.toDeviceArray(root, null, allocator);
                quiver.serve(BenchBatches.name("quiver", type, mib), batch.field(), batch.length() * count, () -> DeviceArrayStream.of(batch.field(),
                        DeviceType.CPU, IntStream.range(0, count).mapToObj(n -> batch.slice(0, batch.length())).iterator()));
            }
        }
        FlightProducer served = new NoOpFlightProducer() {
            @Override
            public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
                FlightProducer producer = plain.get(new String(ticket.getBytes(), StandardCharsets.UTF_8));
                (producer == null ? quiver : producer).getStream(context, ticket, listener);
            }

            @Override
            public org.apache.arrow.flight.FlightInfo getFlightInfo(CallContext context, org.apache.arrow.flight.FlightDescriptor descriptor) {
                return quiver.getFlightInfo(context, descriptor);
            }
        };
        DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), quiver).served(served).build().start();
        System.out.println("listening " + server.getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes the pipe
        }
        System.exit(0);
    }
}
