package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.DeviceArray;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The receiving process of {@link DeviceIpcShareTest}, started by {@link ChildJvm}:
 * {@code BACKEND LIBRARY SOCKET} connects for arrays of device 0 of a backend of {@link TestDoubleDevices} on its
 * test double at {@code LIBRARY}, and prints per batch {@code BATCH id zero-copy|copied DEVICE_TYPE digest} (the
 * digest of its copy to the host), then {@code END}, or {@code ERROR reason message} (exit 3).
 */
public final class DeviceShareChild {
    private DeviceShareChild() {}

    /**
     * Receives every batch.
     *
     * @param args the backend's name in {@link TestDoubleDevices}, its test double's library file, and the owner's socket
     */
    public static void main(String[] args) {
        Device device = TestDoubleDevices.valueOf(args[0]).device(Path.of(args[1]));
        try (ShareClient client = ShareClient.connect(Path.of(args[2]), device, ReceiveOptions.defaults())) {
            for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
                try (DeviceArray array = batch.get().array(); DeviceArray host = array.copyToHost()) {
                    System.out.println("BATCH " + batch.get().batchId() + " " + (batch.get().isZeroCopy() ? "zero-copy" : "copied")
                            + " " + array.deviceType() + " " + Batches.digest(host));
                }
            }
            System.out.println("END");
            System.exit(0);
        } catch (ShareException e) {
            System.out.println("ERROR " + e.reason() + " " + e.getMessage().replace('\n', ' '));
            System.exit(3);
        }
    }
}
