package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.LeakChecks;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.StreamException;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stream served as four endpoints and fetched with {@link DeviceFlightClient#get(FlightInfo, dev.quiver.Device, Delivery,
 * org.apache.arrow.flight.CallOption...)}: in order it is the source, value for value; as they come it is the same
 * batches; an endpoint that fails mid-stream fails the stream naming it; a stream closed early stops every call.
 * Nothing leaks (the allocator of each test is checked empty, server side included).
 */
class ParallelEndpointsTest extends LeakChecks {
    private static final int PARTS = 4;
    private static final int PER_PART = 6;
    private static final int ROWS = 20_000;

    private final Devices devices = Devices.system();
    private DeviceFlightProducer producer;
    private DeviceFlightServer server;
    private DeviceFlightClient client;

    @BeforeEach
    void start() throws Exception {
        producer = new DeviceFlightProducer(allocator, devices.cpu(), devices);
        server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
        client = DeviceFlightClient.builder(Location.forGrpcInsecure("127.0.0.1", server.getPort()), allocator).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.close();
        producer.close();
        Eventually.holds("every batch released", () -> allocator.getAllocatedMemory() == 0, allocator::toVerboseString);
    }

    @Test
    void inOrderIsTheSourceValueForValue() {
        List<Ticket> tickets = producer.serve("split", LongBatches.schema(), (long) PARTS * PER_PART * ROWS, parts(-1));
        FlightInfo info = client.info("split");
        assertEquals(tickets, info.getEndpoints().stream().map(e -> e.getTicket()).toList(), "one endpoint per part, in order");
        try (DeviceArrayStream fetched = client.get(info, devices.cpu(), Delivery.IN_ORDER)) {
            assertEquals(DeviceType.CPU, fetched.deviceType());
            int index = 0;
            while (fetched.hasNext()) {
                try (DeviceArray batch = fetched.next()) {
                    assertEquals(-1, LongBatches.firstWrongRow(batch, index, ROWS), "batch " + index);
                }
                index++;
            }
            assertEquals(PARTS * PER_PART, index);
        }
    }

    @Test
    void asTheyComeGivesTheSameBatches() {
        producer.serve("split", LongBatches.schema(), -1, parts(-1));
        List<Integer> seen = new ArrayList<>();
        try (DeviceArrayStream fetched = client.get(client.info("split"), devices.cpu(), Delivery.AS_THEY_COME)) {
            while (fetched.hasNext()) {
                try (DeviceArray batch = fetched.next()) {
                    int index = (int) (firstValue(batch) / ROWS);
                    assertEquals(-1, LongBatches.firstWrongRow(batch, index, ROWS), "batch " + index);
                    seen.add(index);
                }
            }
        }
        assertEquals(PARTS * PER_PART, seen.size());
        assertEquals(java.util.stream.IntStream.range(0, PARTS * PER_PART).boxed().toList(), seen.stream().sorted().toList(), "each batch once");
        for (int part = 0; part < PARTS; part++) {
            int p = part;
            List<Integer> ofPart = seen.stream().filter(i -> i / PER_PART == p).toList();
            assertEquals(ofPart.stream().sorted().toList(), ofPart, "the batches of endpoint " + part + " keep their order");
        }
    }

    @Test
    void anEndpointThatFailsMidStreamFailsTheStreamNamingIt() {
        List<Ticket> tickets = producer.serve("split", LongBatches.schema(), -1, parts(2));
        for (Delivery delivery : Delivery.values()) {
            try (DeviceArrayStream fetched = client.get(client.info("split"), devices.cpu(), delivery)) {
                StreamException failed = assertThrows(StreamException.class, () -> {
                    while (fetched.hasNext()) {
                        fetched.next().close();
                    }
                });
                FlightTransferException cause = assertInstanceOfTransfer(failed);
                assertTrue(cause.getMessage().contains("endpoint 2 of 4 (ticket " + Tickets.describe(tickets.get(2)) + ")"), cause.getMessage());
                assertTrue(cause.getMessage().contains("part 2 broke"), cause.getMessage());
                assertEquals(FlightStatusCode.INTERNAL, cause.status().code());
            }
        }
    }

    @Test
    void closingEarlyStopsEveryCall() throws InterruptedException {
        producer.serve("split", LongBatches.schema(), -1, parts(-1));
        for (Delivery delivery : Delivery.values()) {
            try (DeviceArrayStream fetched = client.get(client.info("split"), devices.cpu(), delivery)) {
                for (int i = 0; i < 3; i++) {
                    fetched.next().close();
                }
            }
        }
        Eventually.holds("no endpoint thread left", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("quiver-flight-endpoint-")), () -> Thread.getAllStackTraces().keySet());
    }

    @Test
    void anEndpointOnAnotherServerIsRefused() {
        producer.serve("split", LongBatches.schema(), -1, parts(-1));
        FlightInfo info = client.info("split");
        FlightInfo elsewhere = new FlightInfo(info.getSchema(), info.getDescriptor(), List.of(
                new org.apache.arrow.flight.FlightEndpoint(info.getEndpoints().getFirst().getTicket(), Location.forGrpcInsecure("192.0.2.1", 1))), -1, -1);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> client.get(elsewhere, devices.cpu(), Delivery.IN_ORDER));
        assertTrue(refused.getMessage().contains("endpoint 0 of 1") && refused.getMessage().contains("192.0.2.1"), refused.getMessage());
    }

    private static FlightTransferException assertInstanceOfTransfer(Throwable failed) {
        for (Throwable t = failed; t != null; t = t.getCause()) {
            if (t instanceof FlightTransferException transfer) {
                return transfer;
            }
        }
        throw new AssertionError("no FlightTransferException in " + failed, failed);
    }

    private static long firstValue(DeviceArray batch) {
        try (DeviceArray column = batch.child(0)) {
            return column.buffer(1).asSegment().getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, column.offset());
        }
    }

    /** The parts: part p is batches p * PER_PART ...; part {@code failing} (if any) breaks after its first batch. */
    private List<Supplier<DeviceArrayStream>> parts(int failing) {
        List<Supplier<DeviceArrayStream>> parts = new ArrayList<>();
        for (int part = 0; part < PARTS; part++) {
            int p = part;
            parts.add(p == failing ? () -> breaksAfterOne(p) : () -> DeviceArrayStream.of(LongBatches.schema(), DeviceType.CPU,
                    java.util.stream.IntStream.range(0, PER_PART).mapToObj(k -> LongBatches.batch(p * PER_PART + k, ROWS, allocator)).iterator()));
        }
        return parts;
    }

    private DeviceArrayStream breaksAfterOne(int part) {
        java.util.concurrent.atomic.AtomicBoolean given = new java.util.concurrent.atomic.AtomicBoolean();
        return DeviceArrayStream.of(LongBatches.schema(), DeviceType.CPU, () -> {
            if (given.getAndSet(true)) {
                throw new IllegalStateException("part " + part + " broke");
            }
            return LongBatches.batch(part * PER_PART, ROWS, allocator);
        });
    }
}
