package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.share.ShareStatistics;
import dev.quiver.share.SharedHostArena;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same-host path of {@link DeviceFlightClient#fetch}: a server in this JVM that shares locally hands its
 * streams over as memory-file handles, with the values the bytes path gives; a server that does not share,
 * or that answers with another host, a socket that is not there, a socket that never answers or garbage, is
 * fetched as bytes, and the client says why.
 */
class SameHostTest {
    private static final int BATCHES = 3;
    private static final int ROWS = 10_000;

    private static BufferAllocator allocator;
    private static SharedHostArena arena;
    private static DeviceFlightProducer producer;
    private static LocalFlightServer server;
    private static Ticket every;
    private static Ticket longs;
    private static Ticket inArena;

    @BeforeAll
    static void serve() {
        allocator = new RootAllocator();
        Devices devices = Devices.system();
        producer = new DeviceFlightProducer(allocator, devices.cpu(), devices).shareLocally(true);
        every = producer.serve("every-type", EveryTypeBatches.schema(), -1, () -> CountingSource.stream(EveryTypeBatches.schema(),
                EveryTypeBatches.ROWS.size(), b -> EveryTypeBatches.batch(b).toDeviceArray(), devices.cpu()));
        longs = producer.serve("longs", LongBatches.schema(), (long) BATCHES * ROWS,
                () -> CountingSource.stream(LongBatches.schema(), BATCHES, b -> LongBatches.batch(b, ROWS, allocator), devices.cpu()));
        arena = SharedHostArena.create(64L << 20);
        List<DeviceArray> shareable = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            try (DeviceArray batch = LongBatches.batch(b, ROWS, allocator)) {
                shareable.add(arena.copyOf(batch));
            }
        }
        inArena = producer.serve("longs-in-arena", LongBatches.schema(), shareable);
        server = new LocalFlightServer(allocator, producer);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.close();
        producer.close();
        arena.close();
        allocator.close();
    }

    @Test
    void aServerThatSharesHandsTheStreamOverWithTheValuesOfTheBytesPath() throws Exception {
        List<String> shared;
        try (DeviceFlightClient client = client(server.location());
             FetchedStream fetched = client.fetch(every, Devices.system().cpu())) {
            assertEquals(FetchedStream.Route.SHARED, fetched.route(), () -> fetched.fallbackReason().orElse(""));
            shared = values(fetched.stream());
            assertEquals(EveryTypeBatches.ROWS.size(), fetched.sharedBatches());
            assertEquals(0, fetched.zeroCopyBatches(), "arrays outside shared memory are copied for the handoff");
        }
        List<String> bytes;
        try (DeviceFlightClient client = DeviceFlightClient.builder(server.location(), allocator).build();
             FetchedStream fetched = client.fetch(every, Devices.system().cpu())) {
            assertEquals(FetchedStream.Route.FETCHED, fetched.route());
            bytes = values(fetched.stream());
        }
        assertEquals(bytes, shared);
        assertEquals(EveryTypeBatches.ROWS.size(), shared.size());
        Eventually.holds("every shared batch released on both sides",
                () -> ShareStatistics.outstandingBatches() == 0 && ShareStatistics.mappedRegions() == 0,
                () -> ShareStatistics.outstandingBatches() + " outstanding, " + ShareStatistics.mappedRegions() + " mapped");
    }

    @Test
    void batchesInSharedMemoryArriveZeroCopyAndGetUsesTheSamePath() throws Exception {
        try (DeviceFlightClient client = client(server.location());
             FetchedStream fetched = client.fetch(inArena, Devices.system().cpu())) {
            assertEquals(FetchedStream.Route.SHARED, fetched.route(), () -> fetched.fallbackReason().orElse(""));
            checkLongs(fetched.stream(), DeviceType.CPU);
            assertEquals(BATCHES, fetched.zeroCopyBatches());
        }
        try (DeviceFlightClient client = client(server.location());
             DeviceArrayStream stream = client.get(longs, Devices.system().cpu())) {
            checkLongs(stream, DeviceType.CPU);
            assertEquals(0, client.bytesReceived(), "get took the same-host path, not DoGet");
        }
    }

    @Test
    void sharedBatchesLandOnTheRequestedDevice() throws Exception {
        try (DeviceFlightClient client = client(server.location());
             FetchedStream fetched = client.fetch(longs, Devices.system().get(DeviceType.OPENCL, 0))) {
            assertEquals(FetchedStream.Route.SHARED, fetched.route(), () -> fetched.fallbackReason().orElse(""));
            assertEquals(DeviceType.OPENCL, fetched.stream().deviceType());
            checkLongs(fetched.stream(), DeviceType.OPENCL);
        }
    }

    @Test
    void aServerThatDoesNotShareIsFetchedAsBytes() throws Exception {
        Devices devices = Devices.system();
        try (DeviceFlightProducer plain = new DeviceFlightProducer(allocator, devices.cpu(), devices);
             LocalFlightServer bytesOnly = new LocalFlightServer(allocator, plain)) {
            Ticket ticket = plain.serve("longs", LongBatches.schema(), (long) BATCHES * ROWS,
                    () -> CountingSource.stream(LongBatches.schema(), BATCHES, b -> LongBatches.batch(b, ROWS, allocator), devices.cpu()));
            try (DeviceFlightClient client = client(bytesOnly.location());
                 FetchedStream fetched = client.fetch(ticket, devices.cpu())) {
                assertEquals(FetchedStream.Route.FETCHED, fetched.route());
                assertTrue(fetched.fallbackReason().orElseThrow().contains("UNIMPLEMENTED"), fetched.fallbackReason().orElseThrow());
                checkLongs(fetched.stream(), DeviceType.CPU);
                assertTrue(client.bytesReceived() > 0);
            }
        }
    }

    @Test
    void anotherHostIsFetchedAsBytes() throws Exception {
        String reason = fetchedFromLiar(offer("machine=elsewhere;boot=0;uid=0", "/tmp/quiver-share-elsewhere/share.sock"));
        assertTrue(reason.contains("another host"), reason);
    }

    @Test
    void aSocketThatIsNotThereIsFetchedAsBytes() throws Exception {
        String reason = fetchedFromLiar(offer(HostIdentity.current().orElseThrow(), "/nonexistent/quiver/share.sock"));
        assertTrue(reason.contains("cannot receive through the server's socket"), reason);
    }

    @Test
    void aSocketThatNeverAnswersIsFetchedAsBytesWithinTheTimeout() throws Exception {
        Path directory = Files.createTempDirectory("quiver-flight-silent-");
        Path socket = directory.resolve("silent.sock");
        try (ServerSocketChannel silent = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            silent.bind(UnixDomainSocketAddress.of(socket));
            long start = System.nanoTime();
            String reason = fetchedFromLiar(offer(HostIdentity.current().orElseThrow(), socket.toString()));
            assertTrue(reason.contains("did not complete the handshake"), reason);
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(20).toNanos(), "the fallback waited for the timeout only");
        } finally {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(directory);
        }
    }

    @Test
    void aMalformedAnswerIsFetchedAsBytes() throws Exception {
        String reason = fetchedFromLiar("quiver.share 1\nsocket=relative\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(reason.contains("malformed"), reason);
        reason = fetchedFromLiar(new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        assertTrue(reason.contains("not UTF-8"), reason);
        reason = fetchedFromLiar(offer(HostIdentity.current().orElseThrow(), "relative/share.sock"));
        assertTrue(reason.contains("not an absolute path"), reason);
    }

    @Test
    void anOfferNobodyTakesGoesAway() throws Exception {
        Devices devices = Devices.system();
        try (DeviceFlightProducer quick = new DeviceFlightProducer(allocator, devices.cpu(), devices)
                .shareTimeouts(Duration.ofMillis(200), Duration.ofSeconds(1)).shareLocally(true);
             LocalFlightServer sharing = new LocalFlightServer(allocator, quick);
             DeviceFlightClient client = DeviceFlightClient.builder(sharing.location(), allocator).build()) {
            Ticket ticket = quick.serve("longs", LongBatches.schema(), -1,
                    () -> CountingSource.stream(LongBatches.schema(), 1, b -> LongBatches.batch(b, ROWS, allocator), devices.cpu()));
            var results = client.flightClient().doAction(new Action(DeviceFlightProducer.SHARE_ACTION, ticket.getBytes()));
            SameHostOffer offer = SameHostOffer.decode(results.next().getBody());
            assertTrue(Files.exists(offer.socket()), "the socket waits for its receiver");
            Eventually.holds("the socket is removed after the accept timeout", () -> !Files.exists(offer.socket()), offer::socket);
        }
    }

    @Test
    void offersWaitingForTheirReceiversAreBounded() throws Exception {
        Devices devices = Devices.system();
        try (DeviceFlightProducer bounded = new DeviceFlightProducer(allocator, devices.cpu(), devices).shareLocally(true);
             LocalFlightServer sharing = new LocalFlightServer(allocator, bounded);
             DeviceFlightClient client = DeviceFlightClient.builder(sharing.location(), allocator).build()) {
            Ticket ticket = bounded.serve("longs", LongBatches.schema(), -1,
                    () -> CountingSource.stream(LongBatches.schema(), 1, b -> LongBatches.batch(b, ROWS, allocator), devices.cpu()));
            Action ask = new Action(DeviceFlightProducer.SHARE_ACTION, ticket.getBytes());
            for (int i = 0; i < LocalShares.MAX_WAITING; i++) {
                client.flightClient().doAction(ask).next();
            }
            FlightRuntimeException refused = assertThrows(
                    FlightRuntimeException.class, () -> client.flightClient().doAction(ask).next());
            assertEquals(FlightStatusCode.UNAVAILABLE, refused.status().code());
            assertTrue(refused.getMessage().contains("wait for their receivers"), refused.getMessage());
        }
    }

    private static byte[] offer(String host, String socket) {
        return ("quiver.share 1\nhost=" + host + "\nsocket=" + socket + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** @return why the client fetched bytes from a server that answers the action with {@code answer} */
    private static String fetchedFromLiar(byte[] answer) throws Exception {
        try (LocalFlightServer liar = new LocalFlightServer(allocator, new LyingShareProducer(producer, answer));
             DeviceFlightClient client = DeviceFlightClient.builder(liar.location(), allocator).preferSameHost(Duration.ofSeconds(2)).build();
             FetchedStream fetched = client.fetch(longs, Devices.system().cpu())) {
            assertEquals(FetchedStream.Route.FETCHED, fetched.route());
            checkLongs(fetched.stream(), DeviceType.CPU);
            assertEquals(0, fetched.sharedBatches());
            return fetched.fallbackReason().orElseThrow();
        }
    }

    private static DeviceFlightClient client(Location location) {
        return DeviceFlightClient.builder(location, allocator).preferSameHost(true).build();
    }

    private static List<String> values(DeviceArrayStream stream) {
        List<String> out = new ArrayList<>();
        while (stream.hasNext()) {
            try (DeviceArray batch = stream.next()) {
                out.add(ArrayReader.of(batch).values().toString());
            }
        }
        return out;
    }

    private static void checkLongs(DeviceArrayStream stream, DeviceType expected) {
        int index = 0;
        while (stream.hasNext()) {
            try (DeviceArray batch = stream.next()) {
                assertEquals(expected, batch.deviceType());
                try (DeviceArray host = expected == DeviceType.CPU ? null : Copies.toDevice(batch, Devices.system().cpu())) {
                    assertEquals(-1, LongBatches.firstWrongRow(host == null ? batch : host, index, ROWS), "batch " + index);
                }
            }
            index++;
        }
        assertEquals(BATCHES, index);
        assertFalse(stream.hasNext());
    }
}
