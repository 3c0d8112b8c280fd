package dev.quiver.flight;

import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.function.Executable;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server with TLS (a certificate the test makes) and authentication (basic, then bearer tokens): a client
 * that trusts the certificate and logs in gets data, and puts data that the server lands on Vulkan and serves
 * back; nothing is reachable without logging in, with a wrong password or a forged token, over plain TCP, or
 * without trusting the certificate; a ticket the server did not issue is refused.
 */
class SecurityTest {
    private static final String USER = "analyst";
    private static final String PASSWORD = "correct horse battery staple";

    @TempDir
    static Path certificates;
    private static TestCertificates files;
    private static ChildServer server;
    private static BufferAllocator allocator;

    @BeforeAll
    static void startSecureServer() throws Exception {
        files = TestCertificates.create(certificates);
        server = ChildServer.start("--tls", files.certificate().toString(), files.privateKey().toString(), "--auth", USER, PASSWORD,
                "--put-device", "vulkan");
        allocator = new RootAllocator();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
        assertEquals(0, allocator.getAllocatedMemory(), "client memory still allocated");
        allocator.close();
    }

    private static DeviceFlightClient.Builder trusting(Location location) throws Exception {
        try (InputStream certificate = Files.newInputStream(files.certificate())) {
            return DeviceFlightClient.builder(location, allocator).trustedCertificates(new java.io.ByteArrayInputStream(certificate.readAllBytes()));
        }
    }

    private static Ticket everyTypeTicket() throws Exception {
        try (DeviceFlightClient client = trusting(server.location()).basicAuth(USER, PASSWORD).build()) {
            return client.info("every-type@cpu").getEndpoints().getFirst().getTicket();
        }
    }

    @Test
    void aClientThatTrustsTheCertificateAndLogsInGetsEveryValue() throws Exception {
        try (DeviceFlightClient client = trusting(server.location()).basicAuth(USER, PASSWORD).build()) {
            assertFalse(client.listFlights().isEmpty());
            try (DeviceArrayStream stream = client.get(client.info("every-type@cpu").getEndpoints().getFirst().getTicket(), Devices.system().cpu())) {
                EveryTypeTest.assertBatchesAreTheCatalogue(stream, Devices.system().cpu());
            }
        }
    }

    @Test
    void aLoggedInClientPutsEveryTypeOntoTheServersVulkanAndGetsItBack() throws Exception {
        try (DeviceFlightClient client = trusting(server.location()).basicAuth(USER, PASSWORD).build()) {
            Ticket stored = client.put("secure-put", TestStreams.everyType(Devices.system().cpu()));
            try (DeviceArrayStream stream = client.get(stored, Devices.system().cpu())) {
                EveryTypeTest.assertBatchesAreTheCatalogue(stream, Devices.system().cpu());
            }
        }
    }

    @Test
    void nothingIsReachableWithoutLoggingIn() throws Exception {
        Ticket ticket = everyTypeTicket();
        try (DeviceFlightClient anonymous = trusting(server.location()).build()) {
            assertRefused(FlightStatusCode.UNAUTHENTICATED, anonymous::listFlights);
            assertRefused(FlightStatusCode.UNAUTHENTICATED, () -> anonymous.info("every-type@cpu"));
            assertRefused(FlightStatusCode.UNAUTHENTICATED, () -> anonymous.get(ticket, Devices.system().cpu()).close());
            assertRefused(FlightStatusCode.UNAUTHENTICATED, () -> anonymous.put("intruder", CountingSource.stream(LongBatches.schema(), 1,
                    b -> LongBatches.batch(b, 10, allocator), Devices.system().cpu())));
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        assertRefused(FlightStatusCode.UNAUTHENTICATED, () -> trusting(server.location()).basicAuth(USER, "wrong").build().close());
    }

    @Test
    void aForgedTokenIsRefused() throws Exception {
        try (DeviceFlightClient forged = trusting(server.location()).bearerToken("forged-token").build()) {
            assertRefused(FlightStatusCode.UNAUTHENTICATED, forged::listFlights);
        }
    }

    @Test
    void aTicketTheServerDidNotIssueIsRefused() throws Exception {
        try (DeviceFlightClient client = trusting(server.location()).basicAuth(USER, PASSWORD).build()) {
            assertRefused(FlightStatusCode.NOT_FOUND, () -> client.get(Tickets.parse("every-type@cpu"), Devices.system().cpu()).close());
            assertRefused(FlightStatusCode.NOT_FOUND, () -> client.get(Tickets.parse("HMKoctTy7lScEI1mlB4Ug_SdGU-k3sFk"), Devices.system().cpu()).close());
        }
    }

    @Test
    void plainTcpIsRefused() throws Exception {
        try (DeviceFlightClient plain = DeviceFlightClient.builder(Location.forGrpcInsecure("127.0.0.1", server.port()), allocator).build()) {
            assertRefused(FlightStatusCode.UNAVAILABLE, plain::listFlights);
        }
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateIsRefused() throws Exception {
        try (DeviceFlightClient untrusting = DeviceFlightClient.builder(server.location(), allocator).basicAuth(USER, PASSWORD).build()) {
            assertRefused(FlightStatusCode.UNAVAILABLE, untrusting::listFlights);
        } catch (FlightRuntimeException refusedAtLogin) {
            assertEquals(FlightStatusCode.UNAVAILABLE, refusedAtLogin.status().code(), refusedAtLogin.toString());
        }
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateIsToldWhy() throws Exception {
        try (DeviceFlightClient untrusting = DeviceFlightClient.builder(server.location(), allocator).build()) {
            FlightRuntimeException refused = assertThrows(FlightRuntimeException.class, untrusting::listFlights);
            assertEquals(FlightStatusCode.UNAVAILABLE, refused.status().code());
            assertTrue(refused.getMessage().contains("TLS: ") && refused.getMessage().contains("certification path"), refused.getMessage());
            assertTrue(!refused.getMessage().contains("Channel Pipeline"), refused.getMessage());
        }
    }

    @Test
    void anUnreachableServerIsNamedAsRefusingTheConnection() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (DeviceFlightClient nobody = DeviceFlightClient.builder(Location.forGrpcInsecure("127.0.0.1", closedPort), allocator).build()) {
            FlightRuntimeException refused = assertThrows(FlightRuntimeException.class, nobody::listFlights);
            assertEquals(FlightStatusCode.UNAVAILABLE, refused.status().code());
            assertTrue(refused.getMessage().contains("Connection refused"), refused.getMessage());
        }
    }

    private static void assertRefused(FlightStatusCode expected, Executable call) {
        Throwable thrown = assertThrows(Throwable.class, call);
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof FlightRuntimeException flight) {
                assertEquals(expected, flight.status().code(), flight.toString());
                return;
            }
        }
        assertTrue(false, "not a Flight refusal: " + thrown);
    }
}
