package dev.quiver.benchmarks.handoff;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.share.ShareException;
import dev.quiver.share.ShareServer;
import dev.quiver.share.ShareSession;
import dev.quiver.share.SharedHostArena;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The owner of {@link HandoffVersusFlight}, in a child JVM. For each row count in its arguments it builds one
 * batch of {@link HandoffBatches} in a {@link SharedHostArena} (or, after {@code --device vulkan}, copies it once
 * onto lavapipe, {@link LavapipeDevice}) and offers that same batch two ways:
 * <ul>
 *   <li>on a private share socket of its own, to every receiver that connects, one after the other (printing
 *       {@code SHARE ROWS PATH}): each connection gets the batch once, then END; the socket serves lavapipe
 *       too, so that a receiver on its own lavapipe gets a Vulkan batch as {@code VULKAN_FD} descriptors;</li>
 *   <li>on one Flight server on loopback, a {@link DeviceFlightProducer} as the stream {@code rows-ROWS}:
 *       {@code DoGet} sends its bytes (a Vulkan batch copied to the host first); for host batches it shares
 *       locally too, the same-host action sending the memory file.</li>
 * </ul>
 * It prints {@code listening PORT} once everything is served and exits when its standard input closes, so it
 * never outlives the harness: with status 0, or {@value #VALIDATION_STATUS} after writing to standard error what
 * the Khronos validation layer reported in this process, where it ran and reported anything. The arenas and the batches live as long as the process.
 */
public final class HandoffOwner {
    /** The exit status of an owner whose validation layer reported something. */
    static final int VALIDATION_STATUS = 4;

    private HandoffOwner() {}

    /**
     * Serves until standard input closes.
     *
     * @param args {@code --device cpu|vulkan} optionally (default cpu), then the row counts, each at least 1
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        Devices devices = Devices.system();
        Device cpu = devices.cpu();
        boolean vulkan = args.length >= 2 && args[0].equals("--device") && HandoffDevice.parse(args[1]) == HandoffDevice.VULKAN;
        int first = args.length >= 2 && args[0].equals("--device") ? 2 : 0;
        Device device = vulkan ? LavapipeDevice.of(devices) : cpu;
        BufferAllocator allocator = new RootAllocator();
        DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu, devices).shareLocally(!vulkan);
        for (String arg : List.of(args).subList(first, args.length)) {
            long rows = Long.parseLong(arg);
            DeviceArray batch = vulkan ? HandoffBatches.onDevice(rows, cpu, device)
                    : HandoffBatches.inArena(rows, SharedHostArena.create(Math.max(4096, rows * Long.BYTES)), cpu);
            producer.serve(HandoffVersusFlight.streamName(rows), HandoffBatches.SCHEMA, List.of(batch.slice(0, batch.length())));
            ShareServer server = ShareServer.bindPrivate().serve(device);
            Thread.ofPlatform().daemon().name("handoff-" + rows).start(() -> serveEachReceiver(server, batch));
            System.out.println("SHARE " + rows + " " + server.path());
        }
        FlightServer flight = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
        System.out.println("listening " + flight.getPort());
        System.out.flush();
        waitForEndOfInput();
        List<String> validation = vulkan ? ValidationMessages.all() : List.of();
        if (!validation.isEmpty()) {
            System.err.println("the validation layer in the owner's process: " + validation);
        }
        System.exit(validation.isEmpty() ? 0 : VALIDATION_STATUS);
    }

    /** Hands {@code batch} to each receiver that connects, one at a time, until the process ends. */
    private static void serveEachReceiver(ShareServer server, DeviceArray batch) {
        while (true) {
            try (ShareSession session = server.accept()) {
                session.send(batch);
                session.end();
                session.awaitReleased(Duration.ofMinutes(1));
            } catch (ShareException e) {
                if (e.reason() != ShareException.Reason.PEER_GONE) {   // a receiver that left after its batch is no news
                    System.err.println("handoff of " + batch.length() + " rows: " + e.getMessage());
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void waitForEndOfInput() throws IOException {
        byte[] ignored = new byte[256];
        while (System.in.read(ignored) >= 0) {
            // the harness never writes; the read ends when it closes the pipe or dies
        }
    }
}
