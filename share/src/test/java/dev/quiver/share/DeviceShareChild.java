package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.DeviceArray;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The receiving process of {@link CudaIpcShareTest}, started by {@link ChildJvm}:
 * {@code LIBRARY SOCKET} connects for arrays of CUDA device 0 of the CUDA backend on the test double at
 * {@code LIBRARY}, and prints per batch {@code BATCH id zero-copy|copied DEVICE_TYPE digest} (the digest of its
 * copy to the host), then {@code END}, or {@code ERROR reason message} (exit 3).
 */
public final class CudaShareChild {
    private CudaShareChild() {}

    /**
     * Receives every batch.
     *
     * @param args the test double's library file and the owner's socket
     */
    public static void main(String[] args) {
        Device cuda = CudaTestDoubleDevices.cuda(CudaTestDoubleDevices.devices(Path.of(args[0])));
        try (ShareClient client = ShareClient.connect(Path.of(args[1]), cuda, ReceiveOptions.defaults())) {
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
