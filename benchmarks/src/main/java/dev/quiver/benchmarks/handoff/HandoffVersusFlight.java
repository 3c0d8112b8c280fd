package dev.quiver.benchmarks.handoff;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.FetchedStream;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The zero-copy handoff of one int64 batch between two JVMs on this machine, measured in one run side by side
 * with the same batch through Quiver's Flight on loopback. This JVM is the receiver; it starts the owner,
 * {@link HandoffOwner}, in a child JVM, which builds one batch per size in a {@code SharedHostArena}. For each
 * size, smallest first:
 * <ol>
 *   <li><b>share handoff</b>, {@code --handoffs} times: a fresh {@code ShareClient} connection to the owner's
 *       share socket, then the batch asked for and held (BATCH with the memory file's descriptor, {@code fstat},
 *       {@code mmap}, the array built and validated in structure) and its last value read, one page touched; the
 *       clock runs from asking for the batch, and once more from opening the connection;</li>
 *   <li><b>Flight same-host fetch</b>, {@code --flight-runs} times: {@code DeviceFlightClient} preferring the same
 *       host, from the fetch (the Flight action, the share socket, its handshake) to the batch in hand, zero-copy,
 *       and its last value read;</li>
 *   <li><b>Flight DoGet bytes</b>, {@code --flight-runs} times: {@code DeviceFlightClient} over gRPC on
 *       loopback, from the fetch to the batch in hand (every byte arrived and checked) and its last value
 *       read.</li>
 * </ol>
 * The first timing of each route and size also reads every value of the batch, after its clock stopped. Before
 * the sizes, each route runs a few times on the smallest one, untimed, so that the JIT compiled the paths. The
 * one-row batch is the handle exchange alone; a batch of a million rows is measured the same way to compare.
 * Prints a Markdown table ({@link HandoffTable}), with the ratio of DoGet's median to the handoff's per size.
 *
 * <p><b>Memory.</b> A batch through Flight occupies direct memory on both sides, about twice its size while it
 * is received, and Arrow Java's Flight reader copies a message that arrived in pieces through a heap array of its
 * size: the owner runs with {@code -Xmx512m -XX:MaxDirectMemorySize=} three times the largest batch (at least
 * 1 GiB), and this JVM refuses to start unless it has twice the largest batch of heap and three times of direct
 * memory (run it with {@code -Xmx3g -XX:MaxDirectMemorySize=4g} for the 1 GiB batch).
 *
 * <p>Arguments: {@code --rows R1,R2,...} (default 1, 131072, 1000000, 8388608, 134217728: one row, 1 MiB, a
 * million rows, 64 MiB, 1 GiB), {@code --handoffs N} (default 20), {@code --flight-runs F} (default 3),
 * {@code --device cpu|vulkan} (default cpu; {@code vulkan} measures batches on lavapipe instead, see
 * {@link VulkanHandoffVersusFlight}, by default at 1 MiB, 64 MiB and 1 GiB). Run with native access and Arrow
 * Java's options (see {@code benchmarks/README.md}). Single-threaded.
 */
public final class HandoffVersusFlight {
    /** The JVM options Arrow Java and gRPC's netty need, and native access; the owner's and this JVM's. */
    static final List<String> FLIGHT_JVM_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dio.netty.noUnsafe=false", "--sun-misc-unsafe-memory-access=allow");
    /** The system properties of this JVM that the owner's gets too: how Vulkan runs (validation layer, LWJGL). */
    private static final List<String> PASSED_ON = List.of(LavapipeDevice.VALIDATION_PROPERTY, "org.lwjgl.system.memoryBackend",
            "org.lwjgl.vulkan.libname");
    /** Untimed rounds of each route on the smallest batch before the sizes. */
    static final int WARM_UP = 5;

    /**
     * What to measure.
     *
     * @param rows       the row counts of the batches, each at least 1
     * @param handoffs   share handoffs per size, at least 1
     * @param flightRuns fetches per size and Flight route, at least 1
     * @param device     where the owner keeps the batches and the harness receives them
     */
    record Options(List<Long> rows, int handoffs, int flightRuns, HandoffDevice device) {
        /** Checks the counts. @throws IllegalArgumentException naming the one that is wrong */
        Options {
            rows = List.copyOf(rows);
            if (rows.isEmpty() || rows.stream().anyMatch(r -> r < 1 || r > (1L << 40))) {
                throw new IllegalArgumentException("--rows takes row counts from 1 to 2^40, not " + rows);
            }
            if (handoffs < 1 || flightRuns < 1) {
                throw new IllegalArgumentException("--handoffs and --flight-runs are at least 1, not " + handoffs + " and " + flightRuns);
            }
        }

        /**
         * @param args the command line
         * @return the options it gives, defaults for the others
         * @throws IllegalArgumentException naming an argument that is unknown, lacks its value or is not a number
         */
        static Options parse(String... args) {
            List<Long> rows = null;
            HandoffDevice device = HandoffDevice.CPU;
            int handoffs = 20;
            int flightRuns = 3;
            for (int i = 0; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String value = args[i + 1];
                try {
                    switch (args[i]) {
                        case "--rows" -> rows = Arrays.stream(value.split(",")).map(String::trim).map(Long::parseLong).toList();
                        case "--handoffs" -> handoffs = Integer.parseInt(value);
                        case "--flight-runs" -> flightRuns = Integer.parseInt(value);
                        case "--device" -> device = HandoffDevice.parse(value);
                        default -> throw new IllegalArgumentException("unknown argument " + args[i]
                                + " (--rows R1,R2,..., --handoffs N, --flight-runs F, --device cpu|vulkan)");
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(args[i] + " takes numbers, not " + value, e);
                }
            }
            return new Options(rows == null ? device.defaultRows() : rows, handoffs, flightRuns, device);
        }

        /** {@return the bytes of the largest batch's values} */
        long largestBytes() {
            return rows.stream().mapToLong(r -> r * Long.BYTES).max().orElseThrow();
        }
    }

    private HandoffVersusFlight() {}

    /**
     * Measures and prints the table.
     *
     * @param args see the class documentation
     * @throws Exception if the owner cannot start or a transfer fails
     */
    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        System.out.print(options.device() == HandoffDevice.VULKAN ? VulkanHandoffTable.format(VulkanHandoffVersusFlight.run(options))
                : HandoffTable.format(run(options)));
    }

    /**
     * Measures every size.
     *
     * @param options what to measure
     * @return one row per size, in the order of {@code options.rows()}
     * @throws Exception if the owner cannot start, a transfer fails or a received batch is wrong
     */
    @SuppressWarnings("try")   // DeviceFlightClient.close() may throw InterruptedException; this method declares Exception
    static List<HandoffRow> run(Options options) throws Exception {
        List<HandoffRow> rows = new ArrayList<>();
        try (OwnerProcess owner = OwnerProcess.start(options.device(), options.rows(), ownerJvm(options));
             BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient sameHost = DeviceFlightClient.builder(owner.location(), allocator).preferSameHost(true).build();
             DeviceFlightClient bytes = DeviceFlightClient.builder(owner.location(), allocator).build()) {
            long smallest = options.rows().stream().mapToLong(r -> r).min().orElseThrow();
            for (int i = 0; i < WARM_UP; i++) {
                handoff(owner.socket(smallest), smallest, false);
                fetch(sameHost, smallest, FetchedStream.Route.SHARED, false);
                fetch(bytes, smallest, FetchedStream.Route.FETCHED, false);
            }
            for (long size : options.rows()) {
                long[] handoff = new long[options.handoffs()];
                long[] withConnect = new long[options.handoffs()];
                for (int i = 0; i < options.handoffs(); i++) {
                    long[] both = handoff(owner.socket(size), size, i == 0);
                    handoff[i] = both[0];
                    withConnect[i] = both[1];
                }
                long[] shared = new long[options.flightRuns()];
                long[] fetched = new long[options.flightRuns()];
                for (int i = 0; i < options.flightRuns(); i++) {
                    shared[i] = fetch(sameHost, size, FetchedStream.Route.SHARED, i == 0);
                    fetched[i] = fetch(bytes, size, FetchedStream.Route.FETCHED, i == 0);
                }
                rows.add(new HandoffRow(size, new Samples(handoff), new Samples(withConnect), new Samples(shared), new Samples(fetched)));
            }
        }
        return rows;
    }

    /**
     * Checks that this JVM has the memory to receive the largest batch over Flight.
     *
     * @param options what to measure
     * @return the options of the owner's JVM: {@link #FLIGHT_JVM_OPTIONS}, its memory, and this JVM's Vulkan
     *         settings (validation layer, LWJGL) where they are set
     * @throws IllegalStateException naming the options this JVM needs if it lacks heap or direct memory
     */
    static List<String> ownerJvm(Options options) {
        long direct = directMemoryFor(options.largestBytes());
        long heap = heapFor(options.largestBytes());
        if (maxDirectMemory() < direct || Runtime.getRuntime().maxMemory() < heap) {
            throw new IllegalStateException("receiving a batch of " + options.largestBytes() + " bytes over Flight needs "
                    + (heap >> 20) + " MiB of heap and " + (direct >> 20) + " MiB of direct memory; this JVM has "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB and " + (maxDirectMemory() >> 20)
                    + " MiB: run it with -Xmx" + (heap >> 20) + "m -XX:MaxDirectMemorySize=" + (direct >> 20) + "m or more");
        }
        List<String> ownerJvm = new ArrayList<>(FLIGHT_JVM_OPTIONS);
        ownerJvm.addAll(List.of("-Xmx512m", "-XX:MaxDirectMemorySize=" + (direct >> 20) + "m"));
        for (String key : PASSED_ON) {
            String value = System.getProperty(key);
            if (value != null) {
                ownerJvm.add("-D" + key + "=" + value);
            }
        }
        return ownerJvm;
    }

    /**
     * One share handoff on a fresh connection.
     *
     * @return nanoseconds from asking for the batch, and from opening the connection, to its last value read
     */
    private static long[] handoff(Path socket, long rows, boolean checkAll) {
        long connecting = System.nanoTime();
        try (ShareClient client = ShareClient.connect(socket)) {
            long asking = System.nanoTime();
            ReceivedBatch received = client.next().orElseThrow(() -> new IllegalStateException("the owner sent no batch of " + rows + " rows"));
            try (DeviceArray batch = received.array()) {
                HandoffBatches.checkLast(batch);
                long held = System.nanoTime();
                if (!received.isZeroCopy()) {
                    throw new IllegalStateException("the batch of " + rows + " rows came as a copy, not zero-copy");
                }
                if (checkAll) {
                    HandoffBatches.checkAll(batch, rows);
                }
                if (client.next().isPresent()) {
                    throw new IllegalStateException("the owner sent more than one batch of " + rows + " rows");
                }
                return new long[] {held - asking, held - connecting};
            }
        }
    }

    /**
     * One Flight fetch of the batch of {@code rows} rows, received on the host.
     *
     * @param client   the client
     * @param rows     the batch's rows
     * @param route    the route the fetch must take
     * @param checkAll whether every value is read too, after the clock stopped
     * @return nanoseconds from the fetch to the batch in hand and its last value read
     * @throws IllegalStateException if it took another route, was not zero-copy where it should be, or is wrong
     */
    static long fetch(DeviceFlightClient client, long rows, FetchedStream.Route route, boolean checkAll) {
        Ticket ticket = client.info(streamName(rows)).getEndpoints().getFirst().getTicket();
        long start = System.nanoTime();
        try (FetchedStream fetched = client.fetch(ticket, Devices.system().cpu())) {
            if (fetched.route() != route) {
                throw new IllegalStateException("the batch of " + rows + " rows came by " + fetched.route() + ", not " + route
                        + fetched.fallbackReason().map(r -> ": " + r).orElse(""));
            }
            try (DeviceArray batch = fetched.stream().next()) {
                HandoffBatches.checkLast(batch);
                long elapsed = System.nanoTime() - start;
                if (route == FetchedStream.Route.SHARED && fetched.zeroCopyBatches() != 1) {
                    throw new IllegalStateException("the same-host batch of " + rows + " rows was not zero-copy");
                }
                if (checkAll) {
                    HandoffBatches.checkAll(batch, rows);
                }
                if (fetched.stream().hasNext()) {
                    throw new IllegalStateException("the stream of " + rows + " rows has more than one batch");
                }
                return elapsed;
            }
        }
    }

    /** {@return the Flight stream of the batch of {@code rows} rows} */
    static String streamName(long rows) {
        return "rows-" + rows;
    }

    /** {@return the direct memory each side needs for a batch of {@code bytes} over Flight: three times it, at least 1 GiB} */
    static long directMemoryFor(long bytes) {
        return Math.max(1L << 30, 3 * bytes);
    }

    /**
     * {@return the heap the receiving JVM needs for a batch of {@code bytes} over Flight: Arrow Java's Flight reader
     * copies a message that does not arrive in one direct buffer through a heap array of its size, so twice it,
     * at least 512 MiB}
     */
    static long heapFor(long bytes) {
        return Math.max(512L << 20, 2 * bytes);
    }

    /** {@return this JVM's bound on direct memory, {@code -XX:MaxDirectMemorySize} or by default the heap's} */
    private static long maxDirectMemory() {
        com.sun.management.HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
        return set > 0 ? set : Runtime.getRuntime().maxMemory();
    }
}
