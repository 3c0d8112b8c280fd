package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The receiving process of {@link DeviceRewriteTest}, started by {@link ChildJvm}: {@code BACKEND LIBRARY SOCKET GATE}
 * receives one batch on device 0 of a backend of {@link TestDoubleDevices} on its test double at {@code LIBRARY},
 * prints {@code HELD id} and holds it until the file {@code GATE} exists (the owner has rewritten its memory by then),
 * then copies it to the host and prints {@code READ digest}, or {@code ERROR message} if that copy or its read
 * failed, and {@code END} once the owner ended the stream.
 */
public final class HoldingChild {
    private HoldingChild() {}

    /**
     * Receives, holds and reads one batch.
     *
     * @param args the backend's name in {@link TestDoubleDevices}, its test double's library file, the owner's socket
     *             and the gate file
     * @throws Exception if the gate never opens
     */
    public static void main(String[] args) throws Exception {
        Device device = TestDoubleDevices.valueOf(args[0]).device(Path.of(args[1]));
        Path gate = Path.of(args[3]);
        try (ShareClient client = ShareClient.connect(Path.of(args[2]), device, ReceiveOptions.defaults())) {
            ReceivedBatch batch = client.next().orElseThrow();
            try (DeviceArray array = batch.array()) {
                System.out.println("HELD " + batch.batchId());
                for (long waited = 0; !Files.exists(gate); waited += 10) {
                    if (waited > 30_000) {
                        throw new IllegalStateException("the gate " + gate + " never opened");
                    }
                    Thread.sleep(10);
                }
                try (DeviceArray host = Copies.toHost(array)) {
                    System.out.println("READ " + Batches.digest(host));
                } catch (RuntimeException e) {
                    System.out.println("ERROR " + e.getMessage().replace('\n', ' '));
                }
            }
            if (client.next().isPresent()) {
                throw new IllegalStateException("the owner sent a second batch");
            }
            System.out.println("END");
        }
        System.exit(0);
    }
}
