package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.LeakChecks;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link DeviceFlightServer} built with {@link DeviceFlightServer.Builder#compression}: a {@link DeviceFlightClient}
 * fetches the stream with every value as served, whatever the codec, in compressed bodies where one is set; a plain
 * Arrow Java {@link FlightClient} reads it too (its {@code FlightStream} finds the {@code arrow-compression} codecs on
 * the class path, where they are for these tests).
 * Nothing leaks (the allocator is checked empty, server side included).
 */
class ServerCompressionTest extends LeakChecks {
    private static final int BATCHES = 5;
    private static final int ROWS = 20_000;

    private final Devices devices = Devices.system();

    @ParameterizedTest
    @EnumSource(FlightCompression.class)
    void aDeviceFlightClientFetchesEveryValue(FlightCompression compression) throws Exception {
        try (DeviceFlightProducer producer = new DeviceFlightProducer(allocator, devices.cpu(), devices);
             DeviceFlightServer server = serve(producer, compression);
             DeviceFlightClient client = DeviceFlightClient.builder(Location.forGrpcInsecure("127.0.0.1", server.getPort()), allocator).build();
             DeviceArrayStream fetched = client.get(client.info("longs"), devices.cpu(), Delivery.IN_ORDER)) {
            int index = 0;
            while (fetched.hasNext()) {
                try (DeviceArray batch = fetched.next()) {
                    assertEquals(-1, LongBatches.firstWrongRow(batch, index, ROWS), "batch " + index);
                }
                index++;
            }
            assertEquals(BATCHES, index);
            long raw = (long) BATCHES * ROWS * Long.BYTES;
            if (compression == FlightCompression.NONE) {
                assertTrue(client.bytesReceived() >= raw, "bodies as they lie: " + client.bytesReceived());
            } else {
                assertTrue(client.bytesReceived() < raw * 3 / 4, "compressed bodies: " + client.bytesReceived() + " of " + raw);
            }
        }
        Eventually.holds("every batch released", () -> allocator.getAllocatedMemory() == 0, allocator::toVerboseString);
    }

    @ParameterizedTest
    @EnumSource(FlightCompression.class)
    void aPlainFlightClientReadsEveryValue(FlightCompression compression) throws Exception {
        try (DeviceFlightProducer producer = new DeviceFlightProducer(allocator, devices.cpu(), devices);
             DeviceFlightServer server = serve(producer, compression);
             FlightClient plain = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort())).build()) {
            Ticket ticket = plain.getInfo(org.apache.arrow.flight.FlightDescriptor.path("longs")).getEndpoints().getFirst().getTicket();
            try (FlightStream stream = plain.getStream(ticket)) {
                long next = 0;
                int batches = 0;
                while (stream.next()) {
                    BigIntVector v = (BigIntVector) stream.getRoot().getVector(0);
                    assertEquals(ROWS, v.getValueCount());
                    for (int r = 0; r < ROWS; r++) {
                        assertEquals(next++, v.get(r), "row " + r + " of batch " + batches);
                    }
                    batches++;
                }
                assertEquals(BATCHES, batches);
            }
        }
        Eventually.holds("every batch released", () -> allocator.getAllocatedMemory() == 0, allocator::toVerboseString);
    }

    private DeviceFlightServer serve(DeviceFlightProducer producer, FlightCompression compression) throws Exception {
        producer.serve("longs", LongBatches.schema(), (long) BATCHES * ROWS, () -> DeviceArrayStream.of(LongBatches.schema(), DeviceType.CPU,
                IntStream.range(0, BATCHES).mapToObj(b -> LongBatches.batch(b, ROWS, allocator)).iterator()));
        return DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).compression(compression).build().start();
    }
}
