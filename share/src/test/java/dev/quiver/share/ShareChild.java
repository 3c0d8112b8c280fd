package dev.quiver.share;

import dev.quiver.ArrayBuilder;
import dev.quiver.DeviceArray;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The other process of the two-process tests, started by {@link ChildJvm}. Speaks in lines on standard output:
 * <ul>
 *   <li>{@code receive SOCKET}: receives every batch, printing {@code BATCH id zero-copy|copied digest}, then
 *       {@code END}, or {@code ERROR reason message} (exit 3);</li>
 *   <li>{@code receive-hold SOCKET}: receives batches forever and keeps them, printing {@code GOT n}: to be killed;</li>
 *   <li>{@code serve SEED BATCHES ROWS shared|copied}: serves that many batches to one receiver, printing
 *       {@code SOCKET path} first and {@code DONE outstanding openRegions} after the receiver released them;</li>
 *   <li>{@code serve-forever ROWS}: serves batches to one receiver until killed, printing {@code SOCKET path}
 *       and {@code SENT n};</li>
 *   <li>{@code serve-sized BYTES COUNT}: serves one int64 array of {@code BYTES} bytes, built in a shared arena,
 *       {@code COUNT} times to one receiver ({@link HandoffTiming}).</li>
 * </ul>
 */
public final class ShareChild {
    private ShareChild() {}

    /**
     * Runs one mode.
     *
     * @param args the mode and its arguments
     * @throws Exception on failure, which ends the process with a stack trace
     */
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "receive" -> System.exit(receive(Path.of(args[1])));
            case "receive-hold" -> receiveHold(Path.of(args[1]));
            case "serve" -> serve(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4].equals("shared"));
            case "serve-forever" -> serveForever(Integer.parseInt(args[1]));
            case "serve-sized" -> serveSized(Long.parseLong(args[1]), Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static int receive(Path socket) {
        try (ShareClient client = ShareClient.connect(socket)) {
            for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
                try (DeviceArray array = batch.get().array()) {
                    System.out.println("BATCH " + batch.get().batchId() + " " + (batch.get().isZeroCopy() ? "zero-copy" : "copied")
                            + " " + Batches.digest(array));
                }
            }
            System.out.println("END");
            return 0;
        } catch (ShareException e) {
            System.out.println("ERROR " + e.reason() + " " + e.getMessage());
            return 3;
        }
    }

    private static void receiveHold(Path socket) {
        List<DeviceArray> held = new ArrayList<>();
        try (ShareClient client = ShareClient.connect(socket)) {
            for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
                held.add(batch.get().array());
                System.out.println("GOT " + held.size());
            }
        }
    }

    private static void serve(int seed, int batches, int rows, boolean shared) throws InterruptedException {
        try (ShareServer server = ShareServer.bindPrivate()) {
            System.out.println("SOCKET " + server.path());
            try (ShareSession session = server.accept()) {
                for (int b = 0; b < batches; b++) {
                    try (DeviceArray built = Batches.table(seed + b, rows).toDeviceArray()) {
                        if (shared) {
                            try (SharedHostArena arena = SharedHostArena.create(Math.max(4096, rows * 256L));
                                 DeviceArray placed = arena.copyOf(built)) {
                                session.send(placed);
                            }
                        } else {
                            session.send(built);
                        }
                    }
                }
                session.end();
                session.awaitReleased(Duration.ofSeconds(60));
                System.out.println("DONE " + session.outstanding() + " " + ShareStatistics.openRegions());
            }
        }
    }

    private static void serveForever(int rows) {
        try (ShareServer server = ShareServer.bindPrivate()) {
            System.out.println("SOCKET " + server.path());
            try (ShareSession session = server.accept()) {
                for (int b = 0; ; b++) {
                    try (DeviceArray built = Batches.table(b, rows).toDeviceArray();
                         SharedHostArena arena = SharedHostArena.create(Math.max(4096, rows * 256L));
                         DeviceArray placed = arena.copyOf(built)) {
                        session.send(placed);
                    }
                    System.out.println("SENT " + (b + 1));
                }
            }
        }
    }

    private static void serveSized(long bytes, int count) throws InterruptedException {
        dev.quiver.Device cpu = dev.quiver.Devices.system().cpu();
        dev.quiver.type.Field field = dev.quiver.type.Field.of("v", new dev.quiver.type.ArrowType.Int(64, true), false);
        try (ShareServer server = ShareServer.bindPrivate();
             SharedHostArena arena = SharedHostArena.create(bytes)) {
            dev.quiver.DeviceBuffer data = arena.allocate(bytes);
            java.lang.foreign.MemorySegment values = data.asSegment();
            for (long i = 0; i < bytes / 8; i++) {
                values.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i, i);
            }
            try (DeviceArray array = ArrayBuilder.of(field, cpu).length(bytes / 8).nullCount(0).absentBuffer().buffer(data).build()) {
                System.out.println("SOCKET " + server.path());
                try (ShareSession session = server.accept()) {
                    for (int i = 0; i < count; i++) {
                        session.send(array);
                    }
                    session.end();
                    session.awaitReleased(Duration.ofMinutes(5));
                }
            }
        }
    }
}
