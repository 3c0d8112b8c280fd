package dev.quiver.flight.hostile;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import io.grpc.Status;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static dev.quiver.flight.hostile.IpcFrames.batch;
import static dev.quiver.flight.hostile.IpcFrames.ints;
import static dev.quiver.flight.hostile.IpcFrames.longs;
import static dev.quiver.flight.hostile.IpcFrames.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A put to a {@link DeviceFlightServer} whose first message is a batch, not its schema, is refused at once with
 * {@code INVALID_ARGUMENT} naming the rule, with the producer's schema timeout left at its 60 s: nothing of it
 * stays allocated or is served, and the server goes on taking puts.
 */
class SchemaFirstPutTest {
    private static final byte[] NONE = new byte[0];

    @ParameterizedTest(name = "{0} first")
    @ValueSource(strings = {"a record batch", "a dictionary batch"})
    void aBatchBeforeTheSchemaIsRefusedAtOnce(String first) throws Exception {
        Flight.FlightData early = first.equals("a record batch")
                ? batch(1).node(1, 0).buffer(NONE).buffer(longs(1)).message()
                : batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 1, 2)).buffer(utf8("ab")).dictionary(0);
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, Devices.system().cpu());
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             HostileClient client = new HostileClient(server.getPort())) {
            long before = allocator.getAllocatedMemory();
            long start = System.nanoTime();
            Status status = client.put(List.of(IpcFrames.withPath(early, "early"), IpcFrames.schema(HostileCases.LONGS)));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(Status.Code.INVALID_ARGUMENT, status.getCode(), "status: " + status);
            assertTrue(status.getDescription().contains("a batch came before the stream's Schema message"), status.getDescription());
            assertTrue(millis < 2_000, "refused after " + millis + " ms, not at once (the schema wait is 60 s)");
            Released.backTo("nothing of the refused put staying allocated", allocator, before, 0);

            List<Flight.FlightData> wellFormed = new ArrayList<>(HostileCases.wellFormedStrings());
            wellFormed.set(0, IpcFrames.withPath(wellFormed.getFirst(), "after"));
            assertEquals(Status.Code.OK, client.put(wellFormed).getCode(), "a put after the refusal is taken");
            try (BufferAllocator readerMemory = new RootAllocator();
                 DeviceFlightClient reader = DeviceFlightClient.builder(server.getLocation(), readerMemory).build()) {
                FlightRuntimeException absent = assertThrows(FlightRuntimeException.class, () -> reader.info("early"));
                assertEquals(FlightStatusCode.NOT_FOUND, absent.status().code(), "a refused put is not served");
                Ticket ticket = reader.info("after").getEndpoints().getFirst().getTicket();
                try (DeviceArrayStream stream = reader.get(ticket, Devices.system().cpu());
                     DeviceArray batch = stream.next(); DeviceArray strings = batch.child(0)) {
                    assertEquals(List.of("abc", "defgh"), ArrayReader.of(strings).values());
                }
            }
        }
    }
}
