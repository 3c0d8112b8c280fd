package dev.quiver.flight.hostile;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A Quiver Flight client facing a hostile server: every malformed stream is refused before a batch of it is
 * handed out or moved to the target device, with an {@link InvalidFlightDataException} (status
 * {@code INVALID_ARGUMENT}) naming the field path as the cause of the stream's error, and nothing is left
 * allocated or exported; the well-formed stream the same server sends arrives intact. A batch before the
 * schema is refused when it arrives, not when the schema wait runs out.
 */
class HostileServerStreamTest {
    private static final Ticket ANY = new Ticket(new byte[] {1});
    private static long exportsBefore;

    @BeforeAll
    static void baseline() {
        exportsBefore = Diagnostics.liveExports();
    }

    @AfterAll
    static void everythingReleased() {
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports never released");
    }

    static Stream<Arguments> cases() {
        return Stream.of("cpu", "opencl").flatMap(device -> HostileCases.all().stream().map(c -> Arguments.of(device, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void aMalformedStreamIsRefusedAndNothingIsKept(String device, HostileCases hostile) throws Exception {
        try (HostileServer server = new HostileServer(hostile::messages); ClientLeakLog log = new ClientLeakLog()) {
            BufferAllocator allocator = new RootAllocator();
            try (DeviceFlightClient client = DeviceFlightClient.builder(server.location(), allocator).schemaTimeout(Duration.ofSeconds(2)).build()) {
                InvalidFlightDataException refused = refusal(client, device);
                assertEquals(FlightStatusCode.INVALID_ARGUMENT, refused.status().code());
                assertTrue(refused.getMessage().contains(hostile.names()), "the refusal names " + hostile.names() + ": " + refused.getMessage());
            }
            long bound = hostile.clientLeaks() ? Released.READER_LEAK_BOUND : 0;
            // where Arrow Java's reader left bytes behind, closing the client says so rather than throwing
            assertEquals(allocator.getAllocatedMemory() > 0, !log.warnings().isEmpty(), log.warnings().toString());
            Released.backTo("nothing of the refused stream staying allocated", allocator, 0, bound);
            if (bound == 0) {
                allocator.close();
            }
        }
    }

    @Test
    void theWellFormedStreamArrivesIntactOnOpenCl() throws Exception {
        try (HostileServer server = new HostileServer(HostileCases::wellFormedStrings);
             BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient client = DeviceFlightClient.builder(server.location(), allocator).build();
             DeviceArrayStream stream = client.get(ANY, Devices.system().get(DeviceType.OPENCL, 0))) {
            assertTrue(stream.hasNext());
            try (DeviceArray batch = stream.next(); DeviceArray host = Copies.toHost(batch); DeviceArray strings = host.child(0)) {
                assertEquals(List.of("abc", "defgh"), ArrayReader.of(strings).values());
            }
            assertFalse(stream.hasNext());
        }
    }

    @Test
    void aBatchBeforeTheSchemaIsRefusedAtOnceNotAfterTheSchemaWait() throws Exception {
        HostileCases early = HostileCases.all().stream().filter(c -> c.name().equals("a batch before the schema")).findFirst().orElseThrow();
        try (HostileServer server = new HostileServer(early::messages);
             BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient client = DeviceFlightClient.builder(server.location(), allocator).schemaTimeout(Duration.ofSeconds(60)).build()) {
            long start = System.nanoTime();
            InvalidFlightDataException refused = refusal(client, "cpu");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(refused.getMessage().contains("a batch came before the stream's Schema message"), refused.getMessage());
            assertTrue(millis < 10_000, "refused after " + millis + " ms, not at once (the schema wait is 60 s)");
        }
    }

    /** Fetches the stream and returns why it was refused, whether at the schema or at a batch. */
    private static InvalidFlightDataException refusal(DeviceFlightClient client, String device) {
        var target = device.equals("cpu") ? Devices.system().cpu() : Devices.system().get(DeviceType.OPENCL, 0);
        try (DeviceArrayStream stream = client.get(ANY, target)) {
            while (stream.hasNext()) {
                stream.next().close();
                fail("a batch of a malformed stream was handed out");
            }
            fail("the malformed stream ended without an error");
        } catch (RuntimeException e) {
            InvalidFlightDataException invalid = find(e);
            assertNotNull(invalid, () -> "the error carries an InvalidFlightDataException: " + e);
            return invalid;
        }
        throw new AssertionError("unreachable");
    }

    private static InvalidFlightDataException find(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidFlightDataException invalid) {
                return invalid;
            }
        }
        return null;
    }
}
