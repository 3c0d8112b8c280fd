package dev.quiver.flight.hostile;

import com.google.protobuf.ByteString;
import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.stream.DeviceArrayStream;
import io.grpc.Status;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static dev.quiver.flight.hostile.IpcFrames.batch;
import static dev.quiver.flight.hostile.IpcFrames.ints;
import static dev.quiver.flight.hostile.IpcFrames.longs;
import static dev.quiver.flight.hostile.IpcFrames.utf8;
import static dev.quiver.flight.hostile.IpcFrames.validity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A fuzzer over the IPC messages of Flight streams: a well-formed stream (int64 with nulls, utf8, a
 * dictionary-encoded utf8 column and its dictionary, two batches) is mutated at random (bytes set, bits
 * flipped, 32-bit words replaced by values that break offsets and lengths, bodies cut short or grown), in
 * the headers and the bodies, and sent as a put to a Quiver server and as a server's answer to a Quiver
 * client. Every outcome must be a refusal with {@code INVALID_ARGUMENT}, or a stream that, fetched back,
 * passes full validation; the JVM must not crash, and nothing may stay allocated or exported beyond what
 * Arrow Java's reader leaks on its own refusals (see {@link HostileCases.Refuser#READER_LEAKING}). Seeded:
 * a failure names the seed that reproduces it. {@code -Dquiver.fuzz.iterations=N} runs longer.
 */
class FlightMessageFuzzTest {
    private static final int ITERATIONS = Integer.getInteger("quiver.fuzz.iterations", 300);
    private static final long SEED = Long.getLong("quiver.fuzz.seed", 20261127L);
    private static final byte[] NONE = new byte[0];
    private static final int[] WORDS = {0, 1, -1, 7, 8, 9, 64, 4096, 1 << 20, 1 << 30, Integer.MAX_VALUE, Integer.MIN_VALUE, -8};
    private static final Schema SCHEMA = new Schema(List.of(
            Field.nullable("n", new ArrowType.Int(64, true)),
            Field.nullable("s", ArrowType.Utf8.INSTANCE),
            new Field("colour", new FieldType(true, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(0, false, new ArrowType.Int(32, true))), List.of())));

    static List<Flight.FlightData> wellFormed() {
        List<Flight.FlightData> messages = new ArrayList<>();
        messages.add(IpcFrames.schema(SCHEMA));
        messages.add(batch(3).node(3, 0).buffer(NONE).buffer(ints(0, 3, 8, 12)).buffer(utf8("redgreenblue")).dictionary(0));
        for (int b = 0; b < 2; b++) {
            messages.add(batch(4)
                    .node(4, 1).buffer(validity(4, 3)).buffer(longs(1, 2, 3 + b, 0))
                    .node(4, 0).buffer(NONE).buffer(ints(0, 1, 3, 6, 10)).buffer(utf8("abbcccdddd"))
                    .node(4, 0).buffer(NONE).buffer(ints(0, 1, 2, b))
                    .message());
        }
        return messages;
    }

    /** One mutated stream: the well-formed one with a few changes to one of its messages. */
    static List<Flight.FlightData> mutated(Random random) {
        List<Flight.FlightData> messages = new ArrayList<>(wellFormed());
        // the schema is mutated rarely: most of what breaks it only makes the stream wait for a schema
        int index = random.nextInt(20) == 0 ? 0 : 1 + random.nextInt(messages.size() - 1);
        Flight.FlightData message = messages.get(index);
        boolean header = random.nextBoolean() || message.getDataBody().isEmpty();
        byte[] bytes = (header ? message.getDataHeader() : message.getDataBody()).toByteArray();
        int changes = 1 + random.nextInt(4);
        for (int c = 0; c < changes && bytes.length > 0; c++) {
            switch (random.nextInt(5)) {
                case 0 -> bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                case 1 -> bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                case 2 -> {
                    if (bytes.length >= 4) {
                        int at = random.nextInt(bytes.length / 4) * 4;
                        int word = WORDS[random.nextInt(WORDS.length)];
                        for (int k = 0; k < 4; k++) {
                            bytes[at + k] = (byte) (word >>> (8 * k));
                        }
                    }
                }
                case 3 -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
                default -> bytes = java.util.Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(64));
            }
        }
        Flight.FlightData.Builder changed = message.toBuilder();
        if (header) {
            changed.setDataHeader(ByteString.copyFrom(bytes));
        } else {
            changed.setDataBody(ByteString.copyFrom(bytes));
        }
        messages.set(index, changed.build());
        return messages;
    }

    /** Puts to Arrow Java's {@code FlightServer} (its reader) and to Quiver's server (the codec's put). */
    @ParameterizedTest(name = "codec server: {0}")
    @ValueSource(booleans = {false, true})
    void mutatedPutsAreRefusedOrServedBackValid(boolean codec) throws Exception {
        long exportsBefore = Diagnostics.liveExports();
        BufferAllocator allocator = new RootAllocator();
        DeviceFlightProducer producer = new DeviceFlightProducer(allocator, Devices.system().cpu()).schemaTimeout(Duration.ofSeconds(1));
        int refused = 0;
        int taken = 0;
        int connectionsClosed = 0;
        Location any = Location.forGrpcInsecure("127.0.0.1", 0);
        try (AutoCloseable server = codec ? DeviceFlightServer.builder(allocator, any, producer).build().start()
                : FlightServer.builder(allocator, any, producer).build().start();
             BufferAllocator readerMemory = new RootAllocator();
             DeviceFlightClient reader = DeviceFlightClient.builder(location(server), readerMemory).build()) {
            int port = location(server).getUri().getPort();
            HostileClient client = new HostileClient(port);
            for (int i = 0; i < ITERATIONS; i++) {
                long seed = SEED + i;
                List<Flight.FlightData> messages = new ArrayList<>(mutated(new Random(seed)));
                // a name per put: a put refused to the client may still be landing (Arrow Java's reader refuses in
                // gRPC's listener while the producer's task reads on), and would replace a later one of the same name
                String name = "fuzzed-" + i;
                messages.set(0, IpcFrames.withPath(messages.getFirst(), name));
                Status status = client.put(messages);
                if (status.getCode() == Status.Code.INTERNAL && status.getDescription() != null
                        && status.getDescription().startsWith("Connection closed after GOAWAY")) {
                    // gRPC's HTTP/2 layer closed the connection on a call the server had already refused while
                    // the client was still sending: the server lives on; the next put takes a new connection
                    connectionsClosed++;
                    refused++;
                    client.close();
                    client = new HostileClient(port);
                    continue;
                }
                if (status.isOk()) {
                    taken++;
                    assertValidWhenFetched(reader, reader.info(name).getEndpoints().getFirst().getTicket(), seed);
                } else if (status.getCode() == Status.Code.INVALID_ARGUMENT) {
                    refused++;
                } else if (status.getCode() == Status.Code.UNKNOWN && "Application error processing RPC".equals(status.getDescription())) {
                    // Arrow Java's Flight layer could not take the message in gRPC's listener, before Quiver saw it
                    refused++;
                } else {
                    fail("seed " + seed + ": the put ended with " + status + ", neither taken nor refused as invalid");
                }
            }
            client.close();
            // the server still takes a well-formed put afterwards
            try (HostileClient fresh = new HostileClient(port)) {
                List<Flight.FlightData> messages = new ArrayList<>(wellFormed());
                messages.set(0, IpcFrames.withPath(messages.getFirst(), "after-the-fuzzing"));
                assertEquals(Status.Code.OK, fresh.put(messages).getCode(), "a well-formed put after " + ITERATIONS + " mutated ones");
            }
            assertTrue(connectionsClosed < ITERATIONS / 10, connectionsClosed + " connections closed by gRPC");
        }
        producer.close();
        assertTrue(refused > ITERATIONS / 4 && taken > 0, "the mutations both break and keep streams: " + refused + " refused, " + taken + " taken");
        assertTrue(allocator.getAllocatedMemory() <= (long) refused * Released.READER_LEAK_BOUND,
                "what stays allocated is at most Arrow Java's reader's own leak: " + allocator.getAllocatedMemory() + " bytes after " + refused + " refusals");
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports never released");
    }

    @Test
    void mutatedServerStreamsAreRefusedOrArriveValid() throws Exception {
        long exportsBefore = Diagnostics.liveExports();
        AtomicReference<List<Flight.FlightData>> current = new AtomicReference<>();
        BufferAllocator allocator = new RootAllocator();
        int refused = 0;
        try (HostileServer server = new HostileServer(current::get);
             ClientLeakLog log = new ClientLeakLog();
             DeviceFlightClient client = DeviceFlightClient.builder(server.location(), allocator).schemaTimeout(Duration.ofSeconds(1)).build()) {
            for (int i = 0; i < ITERATIONS; i++) {
                long seed = SEED + 1_000_000 + i;
                current.set(mutated(new Random(seed)));
                try (DeviceArrayStream stream = client.get(new Ticket(new byte[] {1}), Devices.system().cpu())) {
                    while (stream.hasNext()) {
                        try (DeviceArray batch = stream.next()) {
                            Interchange.validateFull(batch);
                        }
                    }
                } catch (RuntimeException e) {
                    if (InvalidFlightDataException.class.isInstance(rootInvalid(e))) {
                        refused++;
                    } else {
                        throw new AssertionError("seed " + seed + ": the fetch failed other than as invalid data", e);
                    }
                }
            }
        }
        assertTrue(refused > ITERATIONS / 4, "the mutations break streams: " + refused + " refused");
        assertTrue(allocator.getAllocatedMemory() <= (long) refused * Released.READER_LEAK_BOUND,
                "what stays allocated is at most Arrow Java's reader's own leak: " + allocator.getAllocatedMemory() + " bytes after " + refused + " refusals");
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports never released");
    }

    private static Location location(AutoCloseable server) {
        return server instanceof DeviceFlightServer quiver ? quiver.getLocation() : ((FlightServer) server).getLocation();
    }

    private static Throwable rootInvalid(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidFlightDataException) {
                return t;
            }
        }
        return e;
    }

    private static void assertValidWhenFetched(DeviceFlightClient reader, Ticket ticket, long seed) {
        try (DeviceArrayStream stream = reader.get(ticket, Devices.system().cpu())) {
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    Interchange.validateFull(batch);
                }
            }
        } catch (RuntimeException e) {
            throw new AssertionError("seed " + seed + ": a put the server took does not come back valid", e);
        }
    }
}
