package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.LeakChecks;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.StreamException;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
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
 * Endpoints on two servers are fetched at once, each on its own connection; an endpoint whose server is gone fails
 * the fetch with the server's status. Nothing leaks (the allocator of each test is checked empty, server side included).
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
    void endpointsOnTwoServersAreFetchedAtOnceInOrder() throws Exception {
        try (DeviceFlightProducer other = new DeviceFlightProducer(allocator, devices.cpu(), devices);
             DeviceFlightServer otherServer = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), other).build().start()) {
            List<Supplier<DeviceArrayStream>> parts = parts(-1);
            List<Ticket> here = producer.serve("first-half", LongBatches.schema(), -1, parts.subList(0, PARTS / 2));
            List<Ticket> there = other.serve("second-half", LongBatches.schema(), -1, parts.subList(PARTS / 2, PARTS));
            // a coordinator's description: this server's endpoints name no location, the other server's name its own
            List<FlightEndpoint> endpoints = new ArrayList<>();
            here.forEach(ticket -> endpoints.add(new FlightEndpoint(ticket)));
            there.forEach(ticket -> endpoints.add(new FlightEndpoint(ticket, otherServer.getLocation())));
            FlightInfo info = client.info("first-half");
            FlightInfo both = new FlightInfo(info.getSchema(), info.getDescriptor(), endpoints, -1, -1);
            long before = client.bytesReceived();
            try (DeviceArrayStream fetched = client.get(both, devices.cpu(), Delivery.IN_ORDER)) {
                int index = 0;
                while (fetched.hasNext()) {
                    try (DeviceArray batch = fetched.next()) {
                        assertEquals(-1, LongBatches.firstWrongRow(batch, index, ROWS), "batch " + index);
                    }
                    index++;
                }
                assertEquals(PARTS * PER_PART, index, "every batch of both servers");
            }
            long values = (long) PARTS * PER_PART * ROWS * Long.BYTES;
            long counted = client.bytesReceived() - before;
            assertTrue(counted >= values && counted <= values + (long) PARTS * PER_PART * (ROWS / 8 + 64),
                    "the bodies of both servers (values, validity, padding) counted by this client: " + counted);
        }
    }

    @Test
    void anEndpointWhoseServerIsGoneOrUnreachableByGrpcFailsTheFetch() throws Exception {
        producer.serve("split", LongBatches.schema(), -1, parts(-1));
        FlightInfo info = client.info("split");
        Ticket ticket = info.getEndpoints().getFirst().getTicket();
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        FlightInfo gone = new FlightInfo(info.getSchema(), info.getDescriptor(), List.of(new FlightEndpoint(ticket),
                new FlightEndpoint(ticket, Location.forGrpcInsecure("127.0.0.1", closedPort))), -1, -1);
        FlightRuntimeException refused = assertThrows(FlightRuntimeException.class, () -> client.get(gone, devices.cpu(), Delivery.IN_ORDER));
        assertEquals(FlightStatusCode.UNAVAILABLE, refused.status().code(), refused.getMessage());
        FlightInfo unix = new FlightInfo(info.getSchema(), info.getDescriptor(), List.of(new FlightEndpoint(ticket, Location.forGrpcDomainSocket("/tmp/no-such-socket"))), -1, -1);
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> client.get(unix, devices.cpu(), Delivery.IN_ORDER));
        assertTrue(kind.getMessage().contains("none of them a grpc, grpc+tcp or grpc+tls location"), kind.getMessage());
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
