package com.example.share;

import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;
import dev.quiver.share.ShareServer;
import dev.quiver.share.ShareSession;
import dev.quiver.share.SharedHostArena;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Two processes on one machine share a stream of record batches with no copy: this program starts a second JVM,
 * the owner, which builds each batch in shared memory and hands it over as a memory handle; this JVM receives
 * each as an ordinary DeviceArray over the owner's memory, and closing it tells the owner.
 */
public final class ShareBetweenProcesses {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("owner")) {
            own();
            return;
        }
        Process owner = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ShareBetweenProcesses.class.getName(), "owner")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(owner.getInputStream()));
        Path socket = Path.of(lines.readLine());   // the owner prints where it listens

        try (ShareClient client = ShareClient.connect(socket)) {
            for (Optional<ReceivedBatch> next = client.next(); next.isPresent(); next = client.next()) {
                try (DeviceArray batch = next.get().array()) {   // closing it tells the owner
                    System.out.println((next.get().isZeroCopy() ? "zero-copy " : "copied ") + ArrayReader.of(batch).values());
                }
            }
        }
        System.out.println("owner exited with " + owner.waitFor());
    }

    /** The owner: two batches built in shared memory, sent to the one receiver that connects. */
    private static void own() throws Exception {
        List<HostVector> batches = List.of(
                HostVector.struct("batch", HostVector.int64("id", 1L, 2L), HostVector.utf8("name", "a", "b")),
                HostVector.struct("batch", HostVector.int64("id", 3L, null), HostVector.utf8("name", null, "d")));
        try (ShareServer server = ShareServer.bindPrivate()) {
            System.out.println(server.path());
            System.out.flush();
            try (ShareSession session = server.accept()) {
                for (HostVector batch : batches) {
                    try (DeviceArray built = batch.toDeviceArray();
                         SharedHostArena arena = SharedHostArena.create(1 << 16);
                         DeviceArray shared = arena.copyOf(built)) {   // memory another process can map
                        session.send(shared);
                    }
                }
                session.end();
                session.awaitReleased(Duration.ofSeconds(60));   // the receiver still reads our memory until then
            }
        }
    }
}
