package dev.quiver.flight.hostile;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import io.grpc.Status;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Quiver Flight server facing a hostile client: every malformed put is refused with
 * {@code INVALID_ARGUMENT} naming the field path, on every put device, and nothing of it is stored,
 * served or left allocated; a well-formed put sent the same way is taken and served back intact.
 */
class HostilePutTest {
    /** Put devices behind Arrow Java's {@code FlightServer} (its reader), and behind Quiver's server (the codec's put). */
    private static final List<String> ARROW_JAVA = List.of("cpu", "opencl", "vulkan");
    private static final List<String> DEVICES = List.of("cpu", "opencl", "vulkan", "codec:cpu", "codec:opencl", "codec:vulkan");
    private static final List<Server> SERVERS = new ArrayList<>();
    private static long exportsBefore;

    /** One in-process server per put device and path. */
    private record Server(String device, Device target, BufferAllocator allocator, DeviceFlightProducer producer, AutoCloseable flight, int port, Location location) {
        static Server start(String device) throws Exception {
            Devices devices = Devices.system();
            boolean codec = device.startsWith("codec:");
            Device target = switch (device.substring(device.indexOf(':') + 1)) {
                case "cpu" -> devices.cpu();
                case "opencl" -> devices.get(DeviceType.OPENCL, 0);
                default -> devices.get(DeviceType.VULKAN, 0);
            };
            BufferAllocator allocator = new RootAllocator();
            DeviceFlightProducer producer = new DeviceFlightProducer(allocator, target, devices).schemaTimeout(Duration.ofSeconds(2));
            Location any = Location.forGrpcInsecure("127.0.0.1", 0);
            if (codec) {
                DeviceFlightServer flight = DeviceFlightServer.builder(allocator, any, producer).build().start();
                return new Server(device, target, allocator, producer, flight, flight.getPort(), flight.getLocation());
            }
            FlightServer flight = FlightServer.builder(allocator, any, producer).build().start();
            return new Server(device, target, allocator, producer, flight, flight.getPort(), flight.getLocation());
        }

        /** {@return the bytes in use in the pools of the host and the put device, where a codec put's memory comes from} */
        long quiverBytesInUse() {
            long host = Devices.system().cpu().memoryPool().stats().bytesInUse();
            return target.type().equals(DeviceType.CPU) ? host : host + target.memoryPool().stats().bytesInUse();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        exportsBefore = Diagnostics.liveExports();
        for (String device : DEVICES) {
            SERVERS.add(Server.start(device));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Server server : SERVERS) {
            server.flight().close();
            server.producer().close();
            long leaking = HostileCases.all().stream().filter(HostileCases::readerLeaks).count();
            assertTrue(server.allocator().getAllocatedMemory() <= leaking * Released.READER_LEAK_BOUND, server.device()
                    + ": server memory still allocated beyond what Arrow Java's reader leaks on its own refusals:\n" + server.allocator().toVerboseString());
        }
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports never released");
    }

    static Stream<Arguments> cases() {
        return DEVICES.stream().flatMap(device -> HostileCases.all().stream().map(c -> Arguments.of(device, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void aMalformedPutIsRefusedAndNothingIsKept(String device, HostileCases hostile) throws Exception {
        Server server = server(device);
        long before = server.allocator().getAllocatedMemory();
        long quiverBefore = server.quiverBytesInUse();
        String name = "hostile-" + hostile.name();
        List<org.apache.arrow.flight.impl.Flight.FlightData> messages = new ArrayList<>(hostile.messages());
        messages.set(0, IpcFrames.withPath(messages.getFirst(), name));
        Status status;
        try (HostileClient client = new HostileClient(server.port())) {
            status = client.put(messages);
        }
        assertEquals(Status.Code.INVALID_ARGUMENT, status.getCode(), "status of " + hostile + ": " + status);
        assertTrue(status.getDescription().contains(hostile.names()), "the refusal names " + hostile.names() + ": " + status.getDescription());
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient reader = DeviceFlightClient.builder(server.location() , allocator).build()) {
            FlightRuntimeException absent = assertThrows(FlightRuntimeException.class, () -> reader.info(name));
            assertEquals(FlightStatusCode.NOT_FOUND, absent.status().code(), "a refused put is not served");
        }
        Released.backTo("nothing of the refused put staying allocated", server.allocator(), before,
                hostile.readerLeaks() ? Released.READER_LEAK_BOUND : 0);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (server.quiverBytesInUse() > quiverBefore && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(server.quiverBytesInUse() <= quiverBefore, "Quiver memory of the refused put released: " + server.quiverBytesInUse() + " bytes in use, "
                + quiverBefore + " before");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cpu", "opencl", "vulkan", "codec:cpu", "codec:opencl", "codec:vulkan"})
    void aWellFormedPutSentTheSameWayIsTakenAndServedBack(String device) throws Exception {
        Server server = server(device);
        List<org.apache.arrow.flight.impl.Flight.FlightData> messages = new ArrayList<>(HostileCases.wellFormedStrings());
        messages.set(0, IpcFrames.withPath(messages.getFirst(), "well-formed"));
        try (HostileClient client = new HostileClient(server.port())) {
            assertEquals(Status.Code.OK, client.put(messages).getCode());
        }
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient reader = DeviceFlightClient.builder(server.location(), allocator).build()) {
            Ticket ticket = reader.info("well-formed").getEndpoints().getFirst().getTicket();
            try (DeviceArrayStream stream = reader.get(ticket, Devices.system().cpu())) {
                assertTrue(stream.hasNext());
                try (DeviceArray batch = stream.next(); DeviceArray strings = batch.child(0)) {
                    assertEquals(List.of("abc", "defgh"), ArrayReader.of(strings).values());
                }
            }
        }
    }

    static Stream<Arguments> repaired() {
        return ARROW_JAVA.stream().flatMap(device -> HostileCases.repaired().stream().map(c -> Arguments.of(device, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("repaired")
    void whatArrowJavasReaderRepairsIsServedBackWithNothingButWhatArrived(String device, HostileCases.Repaired repaired) throws Exception {
        Server server = server(device);
        String name = "repaired-" + repaired.name();
        List<org.apache.arrow.flight.impl.Flight.FlightData> messages = new ArrayList<>(repaired.messages());
        messages.set(0, IpcFrames.withPath(messages.getFirst(), name));
        try (HostileClient client = new HostileClient(server.port())) {
            assertEquals(Status.Code.OK, client.put(messages).getCode());
        }
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient reader = DeviceFlightClient.builder(server.location(), allocator).build();
             DeviceArrayStream stream = reader.get(reader.info(name).getEndpoints().getFirst().getTicket(), Devices.system().cpu())) {
            assertTrue(stream.hasNext());
            try (DeviceArray batch = stream.next(); DeviceArray column = batch.child(0)) {
                assertEquals(repaired.served(), ArrayReader.of(column).values());
            }
        }
    }

    private static Server server(String device) {
        return SERVERS.stream().filter(s -> s.device().equals(device)).findFirst().orElseThrow();
    }
}
