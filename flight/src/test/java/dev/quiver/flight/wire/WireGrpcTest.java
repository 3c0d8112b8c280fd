package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.type.Field;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The codec on real gRPC-java netty transports, against plain Arrow Java Flight peers: a server answering
 * {@code DoGet} with the codec's messages is read by Arrow Java's {@code FlightClient}, and Arrow Java's
 * {@code FlightServer} is read by a client call with the codec's marshaller, every type of the Flight tests
 * each way. On these paths the copy counts are the documented ones: every body byte the server sent went to
 * netty as the batch's own memory (none copied), and every body byte received was copied exactly once, from
 * gRPC's buffers, none through the heap.
 */
class WireGrpcTest {
    private final Device cpu = Devices.system().cpu();

    @Test
    void arrowJavaFetchesFromTheCodecWithoutACopyOfTheBody() throws Exception {
        Field schema = WireBatches.batch(0).field();
        AtomicLong bufferBytes = new AtomicLong();
        long inPlace = WireCounters.sentInPlace();
        long copied = WireCounters.sentCopied();
        Server server = WireGrpc.serve(cpu, () -> {
            List<OutgoingMessage> messages = new ArrayList<>();
            messages.add(FlightDataEncoder.schema(schema, null));
            for (int b = 0; b < WireBatches.ROWS.size(); b++) {
                try (DeviceArray batch = WireBatches.batch(b).toDeviceArray()) {
                    messages.addAll(FlightDataEncoder.batch(batch, b == 0, null));
                }
            }
            messages.forEach(m -> bufferBytes.addAndGet(m.bufferBytes()));
            return messages;
        });
        List<DeviceArray> fetched = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
             FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort())).build()) {
            try (FlightStream stream = client.getStream(new Ticket(new byte[] {1}))) {
                while (stream.next()) {
                    fetched.add(VectorExport.toValidatedDeviceArray(stream.getRoot(), stream.getDictionaryProvider(), allocator, Devices.system()));
                }
                WireBatches.assertCatalogue(fetched);
            } finally {
                fetched.forEach(DeviceArray::close);
            }
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        assertTrue(bufferBytes.get() > 0, "the batches have body bytes");
        assertEquals(bufferBytes.get(), WireCounters.sentInPlace() - inPlace, "body bytes handed to netty in place");
        assertEquals(0, WireCounters.sentCopied() - copied, "body bytes copied while sending");
    }

    @Test
    void theCodecFetchesFromArrowJavaCopyingEachBodyByteOnce() throws Exception {
        long inUse = cpu.memoryPool().stats().bytesInUse();
        long copied = WireCounters.receivedCopied();
        long throughHeap = WireCounters.receivedThroughHeap();
        long received = 0;
        List<DeviceArray> decoded = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
             FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new CatalogueProducer(allocator)).build().start()) {
            ManagedChannel channel = WireGrpc.channel(server.getPort());
            try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "Arrow Java's DoGet")) {
                Iterator<FlightMessage> messages = WireGrpc.get(channel, new FlightDataMarshaller(cpu, FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES));
                while (messages.hasNext()) {
                    ReceivedMessage message = (ReceivedMessage) messages.next();
                    received += message.bodyLength();
                    DeviceArray batch = decoder.accept(message);
                    if (batch != null) {
                        decoded.add(batch);
                    }
                }
                WireBatches.assertCatalogue(decoded);
            } finally {
                decoded.forEach(DeviceArray::close);
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        assertTrue(received > 0, "Arrow Java sent body bytes");
        assertEquals(received, WireCounters.receivedCopied() - copied, "body bytes copied while receiving: each once");
        assertEquals(0, WireCounters.receivedThroughHeap() - throughHeap, "body bytes that went through the heap");
        assertEquals(inUse, cpu.memoryPool().stats().bytesInUse(), "CPU memory in use after every batch was closed");
    }
}
