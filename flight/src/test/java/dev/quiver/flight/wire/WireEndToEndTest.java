package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The copies per body byte of the whole {@code DoGet} path, as {@link WireCounters} counts them, with every
 * type of the Flight tests: {@link DeviceFlightServer} to {@link DeviceFlightClient} hands every body byte to
 * netty in place (none copied while sending) and copies each received byte once, from gRPC's buffers (none
 * through the heap); plain Arrow Java's {@code FlightClient} reads the same server with none copied while
 * sending; {@code DeviceFlightClient} reads plain Arrow Java's {@code FlightServer} with each byte copied once.
 */
class WireEndToEndTest {
    private final Device cpu = Devices.system().cpu();

    @Test
    void quiverToQuiverSendsInPlaceAndCopiesEachReceivedByteOnce() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu);
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             DeviceFlightClient client = DeviceFlightClient.builder(server.getLocation(), allocator).build()) {
            Ticket ticket = serveCatalogue(producer);
            long inPlace = WireCounters.sentInPlace();
            long sentCopied = WireCounters.sentCopied();
            long received = WireCounters.receivedCopied();
            long throughHeap = WireCounters.receivedThroughHeap();
            long counted = client.bytesReceived();
            WireBatches.assertCatalogue(client.get(ticket, cpu));
            long sent = WireCounters.sentInPlace() - inPlace;
            long copiedIn = WireCounters.receivedCopied() - received;
            assertTrue(sent > 0, "body bytes were sent");
            assertEquals(0, WireCounters.sentCopied() - sentCopied, "body bytes copied while sending");
            assertEquals(0, WireCounters.receivedThroughHeap() - throughHeap, "body bytes that went through the heap");
            assertEquals(client.bytesReceived() - counted, copiedIn, "each body byte received, padding included, copied once");
            assertTrue(copiedIn >= sent && copiedIn - sent < 8L * 64 * WireBatches.ROWS.size(),
                    "the bytes copied in are the bytes sent and their padding: sent " + sent + ", copied " + copiedIn);
        }
    }

    @Test
    void plainArrowJavaReadsTheServerWithNoCopyWhileSending() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu);
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             FlightClient client = FlightClient.builder(allocator, server.getLocation()).build()) {
            Ticket ticket = serveCatalogue(producer);
            long inPlace = WireCounters.sentInPlace();
            long sentCopied = WireCounters.sentCopied();
            List<DeviceArray> fetched = new ArrayList<>();
            try (FlightStream stream = client.getStream(ticket)) {
                while (stream.next()) {
                    fetched.add(VectorExport.toValidatedDeviceArray(stream.getRoot(), stream.getDictionaryProvider(), allocator, Devices.system()));
                }
                WireBatches.assertCatalogue(fetched);
            } finally {
                fetched.forEach(DeviceArray::close);
            }
            assertTrue(WireCounters.sentInPlace() - inPlace > 0, "body bytes were handed to netty in place");
            assertEquals(0, WireCounters.sentCopied() - sentCopied, "body bytes copied while sending");
        }
    }

    @Test
    void quiverReadsPlainArrowJavaCopyingEachByteOnce() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new CatalogueProducer(allocator)).build().start();
             DeviceFlightClient client = DeviceFlightClient.builder(server.getLocation(), allocator).build()) {
            long received = WireCounters.receivedCopied();
            long throughHeap = WireCounters.receivedThroughHeap();
            long counted = client.bytesReceived();
            WireBatches.assertCatalogue(client.get(new Ticket(new byte[] {1}), cpu));
            assertTrue(client.bytesReceived() - counted > 0, "Arrow Java sent body bytes");
            assertEquals(client.bytesReceived() - counted, WireCounters.receivedCopied() - received, "each body byte copied once");
            assertEquals(0, WireCounters.receivedThroughHeap() - throughHeap, "body bytes that went through the heap");
        }
    }

    /** Serves the catalogue's batches (every type of the Flight tests) and returns their ticket. */
    private Ticket serveCatalogue(DeviceFlightProducer producer) {
        List<DeviceArray> batches = IntStream.range(0, WireBatches.ROWS.size()).mapToObj(b -> WireBatches.batch(b).toDeviceArray()).toList();
        return producer.serve("catalogue", batches.getFirst().field(), batches);
    }
}
