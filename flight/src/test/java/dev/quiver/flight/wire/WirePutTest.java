package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorImport;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.flight.FlightCompression;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code DoPut} on the codec's path, with every type of the Flight tests (dictionaries included): a
 * {@link DeviceFlightClient} put to a {@link DeviceFlightServer} hands every body byte to netty in place and the
 * server copies each received byte once, from gRPC's buffers (none through the heap), with each codec; the same
 * client's puts are read by plain Arrow Java's {@code FlightServer} (its reader, decompressing with
 * {@code arrow-compression}); and plain Arrow Java's {@code FlightClient} puts to the codec's server. Every
 * stream put is fetched back and compared value by value.
 */
class WirePutTest {
    private final Device cpu = Devices.system().cpu();

    @ParameterizedTest(name = "{0}")
    @EnumSource(FlightCompression.class)
    void quiverPutsToQuiverInPlaceAndTheServerCopiesEachByteOnce(FlightCompression compression) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu);
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             DeviceFlightClient client = DeviceFlightClient.builder(server.getLocation(), allocator).compression(compression).build()) {
            long inPlace = WireCounters.sentInPlace();
            long sentCopied = WireCounters.sentCopied();
            long received = WireCounters.receivedCopied();
            long throughHeap = WireCounters.receivedThroughHeap();
            long counted = producer.bytesReceived();
            Ticket ticket = client.put("catalogue", catalogue());
            long sent = WireCounters.sentInPlace() - inPlace;
            long copiedIn = WireCounters.receivedCopied() - received;
            assertEquals(0, WireCounters.receivedThroughHeap() - throughHeap, "body bytes that went through the heap");
            assertEquals(producer.bytesReceived() - counted, copiedIn, "each body byte the server received copied once, and counted");
            if (compression == FlightCompression.NONE) {
                assertTrue(sent > 0, "body bytes were sent");
                assertEquals(0, WireCounters.sentCopied() - sentCopied, "body bytes copied while sending");
                assertTrue(copiedIn >= sent && copiedIn - sent < 8L * 64 * WireBatches.ROWS.size(),
                        "the bytes copied in are the bytes sent and their padding: sent " + sent + ", copied " + copiedIn);
            }
            assertFetchedBack(client, ticket);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(FlightCompression.class)
    void plainArrowJavasServerTakesWhatQuiverPuts(FlightCompression compression) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu);
             FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             DeviceFlightClient client = DeviceFlightClient.builder(server.getLocation(), allocator).compression(compression).build()) {
            long sentCopied = WireCounters.sentCopied();
            Ticket ticket = client.put("catalogue", catalogue());
            if (compression == FlightCompression.NONE) {
                assertEquals(0, WireCounters.sentCopied() - sentCopied, "body bytes copied while sending");
            }
            assertFetchedBack(client, ticket);
        }
    }

    @Test
    void plainArrowJavaPutsToQuiversServer() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu);
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             FlightClient plain = FlightClient.builder(allocator, server.getLocation()).build();
             DeviceFlightClient client = DeviceFlightClient.builder(server.getLocation(), allocator).build();
             CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             DeviceArray batch = WireBatches.batch(0).toDeviceArray();
             VectorSchemaRoot root = VectorImport.toVectorSchemaRoot(batch, allocator, dictionaries)) {
            long received = WireCounters.receivedCopied();
            SyncPutListener acknowledgements = new SyncPutListener();
            FlightClient.ClientStreamListener put = plain.startPut(FlightDescriptor.path("from-arrow-java"), root, dictionaries, acknowledgements);
            put.putNext();
            put.completed();
            put.getResult();
            acknowledgements.close();
            assertTrue(WireCounters.receivedCopied() - received > 0, "the server received on the codec's path");
            Ticket ticket = client.info("from-arrow-java").getEndpoints().getFirst().getTicket();
            try (DeviceArrayStream stream = client.get(ticket, cpu)) {
                assertTrue(stream.hasNext(), "the batch put is served back");
                List<Executable> checks = new ArrayList<>();
                try (DeviceArray back = stream.next()) {
                    WireBatches.compare(back, 0, checks);
                }
                assertAll(checks);
                assertEquals(false, stream.hasNext(), "one batch was put");
            }
        }
    }

    /** {@return the catalogue's batches as a CPU stream} */
    private static DeviceArrayStream catalogue() {
        List<DeviceArray> batches = IntStream.range(0, WireBatches.ROWS.size()).mapToObj(b -> WireBatches.batch(b).toDeviceArray()).toList();
        return DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, batches.iterator());
    }

    private void assertFetchedBack(DeviceFlightClient client, Ticket ticket) {
        WireBatches.assertCatalogue(client.get(ticket, cpu));
    }
}
