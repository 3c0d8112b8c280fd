package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.device.vulkan.ValidationLog;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The receiving process of {@link DeviceIpcShareTest} and {@link VulkanShareTest}, started by {@link ChildJvm}:
 * {@code BACKEND LIBRARY SOCKET...} connects to each socket in turn for arrays of device 0 of a backend of {@link TestDoubleDevices} on its
 * test double at {@code LIBRARY}, or, for {@code BACKEND} {@value #LAVAPIPE} (and any {@code LIBRARY}), of
 * {@link Lavapipe}; prints per batch {@code BATCH id zero-copy|copied DEVICE_TYPE digest event|no-event} (the digest of its
 * copy to the host, which waits on the array's sync event; whether the array came with one), then {@code END}, or {@code ERROR reason message} (exit 3); on lavapipe it then prints
 * {@code VALIDATION count messages}, what the validation layer reported in this process.
 */
public final class DeviceShareChild {
    /** The backend argument that picks lavapipe. */
    static final String LAVAPIPE = "LAVAPIPE";

    private DeviceShareChild() {}

    /**
     * Receives every batch.
     *
     * @param args the backend's name in {@link TestDoubleDevices} or {@value #LAVAPIPE}, its test double's library
     *             file, and the owners' sockets, received from one after the other
     */
    public static void main(String[] args) {
        boolean lavapipe = args[0].equals(LAVAPIPE);
        Device device = lavapipe ? Lavapipe.device() : TestDoubleDevices.valueOf(args[0]).device(Path.of(args[1]));
        int status = 0;
        for (int socket = 2; socket < args.length; socket++) {
            status = Math.max(status, receive(Path.of(args[socket]), device));
        }
        if (lavapipe) {
            System.out.println("VALIDATION " + ValidationLog.count() + " " + ValidationLog.messages());
        }
        System.exit(status);
    }

    /** Prints every batch of the owner at {@code socket}; returns 0, or 3 after printing its refusal. */
    private static int receive(Path socket, Device device) {
        try (ShareClient client = ShareClient.connect(socket, device, ReceiveOptions.defaults())) {
            for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
                try (DeviceArray array = batch.get().array(); DeviceArray host = Copies.toHost(array)) {
                    System.out.println("BATCH " + batch.get().batchId() + " " + (batch.get().isZeroCopy() ? "zero-copy" : "copied")
                            + " " + array.deviceType() + " " + Batches.digest(host) + " " + (array.syncEvent().isPresent() ? "event" : "no-event"));
                }
            }
            System.out.println("END");
            return 0;
        } catch (ShareException e) {
            System.out.println("ERROR " + e.reason() + " " + e.getMessage().replace('\n', ' '));
            return 3;
        }
    }
}
