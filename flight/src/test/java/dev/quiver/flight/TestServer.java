package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The Flight server the tests start in a child JVM, on a free loopback port that it prints
 * ({@code listening PORT}). It serves the every-type stream from the CPU, OpenCL and Vulkan, the dictionary
 * streams, a 256 MiB batch and a long stream of 1 MiB batches, lands puts on the device named by
 * {@code --put-device}, and answers the {@code counters} action. Options: {@code --put-device cpu|opencl|vulkan},
 * {@code --tls CERT_PEM KEY_PEM}, {@code --auth USER PASSWORD}, {@code --share-locally} (offers its streams to
 * clients on this host as memory-file handles, and the 256 MiB batch once more, kept in shared memory, as
 * {@code big-in-arena}). It exits when its standard input closes, so it
 * never outlives the test JVM.
 */
public final class TestServer {
    /** Rows of each batch of the {@code many} stream: 1 MiB of int64. */
    static final int MANY_ROWS = 131_072;
    /** Batches of the {@code many} stream: far more than any test reads. */
    static final int MANY_BATCHES = 4_096;
    /** Rows of the {@code big} batch: 256 MiB of int64. */
    static final int BIG_ROWS = 32 * 1024 * 1024;

    private TestServer() {}

    /**
     * gRPC's netty handler logs a client's cancel mid-stream as a WARNING "Stream Error", which the cancel
     * tests provoke on purpose; held here because java.util.logging keeps loggers weakly.
     */
    private static final java.util.logging.Logger NETTY_HANDLER = java.util.logging.Logger.getLogger("io.grpc.netty");

    /**
     * @param args see the class documentation
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        NETTY_HANDLER.setLevel(java.util.logging.Level.SEVERE);
        Devices devices = Devices.system();
        Device putDevice = devices.cpu();
        File cert = null;
        File key = null;
        String user = null;
        String password = null;
        boolean shareLocally = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--put-device" -> putDevice = device(devices, args[++i]);
                case "--tls" -> {
                    cert = new File(args[++i]);
                    key = new File(args[++i]);
                }
                case "--share-locally" -> shareLocally = true;
                case "--auth" -> {
                    user = args[++i];
                    password = args[++i];
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        BufferAllocator allocator = new RootAllocator();
        DeviceFlightProducer producer = new DeviceFlightProducer(allocator, putDevice, devices).shareLocally(shareLocally);
        serveTestStreams(producer, devices, allocator);
        if (shareLocally) {
            serveInSharedMemory(producer, allocator);
        }
        Location location = cert != null ? Location.forGrpcTls("127.0.0.1", 0) : Location.forGrpcInsecure("127.0.0.1", 0);
        DeviceFlightServer.Builder builder = DeviceFlightServer.builder(allocator, location, producer).served(new TestProducer(producer, allocator, null));
        if (cert != null) {
            builder.useTls(cert, key);
        }
        if (user != null) {
            builder.headerAuthenticator(FlightAuth.basicThenBearer(user, password));
        }
        DeviceFlightServer server = builder.build().start();
        System.out.println("listening " + server.getPort());
        System.out.flush();
        waitForEndOfInput(System.in);
        System.exit(0);
    }

    private static void serveTestStreams(DeviceFlightProducer producer, Devices devices, BufferAllocator allocator) {
        for (String name : List.of("cpu", "opencl", "vulkan")) {
            Device device = device(devices, name);
            producer.serve("every-type@" + name, EveryTypeBatches.schema(), EveryTypeBatches.ROWS.stream().mapToLong(r -> r).sum(),
                    () -> CountingSource.stream(EveryTypeBatches.schema(), EveryTypeBatches.ROWS.size(), b -> EveryTypeBatches.batch(b).toDeviceArray(), device));
        }
        for (boolean changing : new boolean[] {false, true}) {
            producer.serve(changing ? "dictionary-changing" : "dictionary-shared", DictionaryBatches.schema(), -1,
                    () -> CountingSource.stream(DictionaryBatches.schema(), DictionaryBatches.BATCHES, b -> DictionaryBatches.batch(b, changing).toDeviceArray(), devices.cpu()));
        }
        producer.serve("big", LongBatches.schema(), BIG_ROWS,
                () -> CountingSource.stream(LongBatches.schema(), 1, b -> LongBatches.batch(b, BIG_ROWS, allocator), devices.cpu()));
        producer.serve("many", LongBatches.schema(), (long) MANY_ROWS * MANY_BATCHES,
                () -> CountingSource.stream(LongBatches.schema(), MANY_BATCHES, b -> LongBatches.batch(b, MANY_ROWS, allocator), devices.cpu()));
    }

    /** Serves the {@code big} batch once more as {@code big-in-arena}, kept in shared memory for the process's life. */
    private static void serveInSharedMemory(DeviceFlightProducer producer, BufferAllocator allocator) {
        dev.quiver.share.SharedHostArena arena = dev.quiver.share.SharedHostArena.create((long) BIG_ROWS * Long.BYTES + (16 << 20));
        try (dev.quiver.DeviceArray big = LongBatches.batch(0, BIG_ROWS, allocator)) {
            producer.serve("big-in-arena", LongBatches.schema(), List.of(arena.copyOf(big)));
        }
    }

    static Device device(Devices devices, String name) {
        return switch (name) {
            case "cpu" -> devices.cpu();
            case "opencl" -> devices.get(DeviceType.OPENCL, 0);
            case "vulkan" -> devices.get(DeviceType.VULKAN, 0);
            default -> throw new IllegalArgumentException("unknown device " + name);
        };
    }

    private static void waitForEndOfInput(InputStream in) throws IOException {
        byte[] ignored = new byte[256];
        while (in.read(ignored) >= 0) {
            // the parent JVM never writes; the read ends when it closes the pipe or dies
        }
    }
}
