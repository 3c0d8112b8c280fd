package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;

import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The handoff that {@link DeviceIpcShareTest} and {@link VulkanShareTest} check for each kind of device handle:
 * three tables on a device sent to a {@link DeviceShareChild} on the same device, each of which must arrive with no
 * copy, as an array of that device, with the values sent. Stateless.
 */
final class ZeroCopyHandoff {
    private ZeroCopyHandoff() {}

    /**
     * Sends {@code table} of seeds 0, 1 and 2, copied to {@code device}, then END, and checks the child's
     * {@code BATCH} lines and its {@code END}; no memory file may be made on the way.
     *
     * @param session the session with the child
     * @param child   the receiving {@link DeviceShareChild}
     * @param devices the devices {@code device} is one of
     * @param device  the device the arrays are sent from and received on
     * @param table   the host table of a seed
     */
    static void sendThree(ShareSession session, ChildJvm child, Devices devices, Device device, IntFunction<HostVector> table) {
        int regions = ShareStatistics.openRegions();
        String[] expected = new String[3];
        for (int seed = 0; seed < 3; seed++) {
            try (DeviceArray host = table.apply(seed).toDeviceArray(devices);
                 DeviceArray onDevice = Copies.toDevice(host, device)) {
                expected[seed] = Batches.digest(host);
                session.send(onDevice);
            }
            assertEquals(regions, ShareStatistics.openRegions(), "no memory file was made: nothing went through host memory");
        }
        session.end();
        for (int seed = 0; seed < 3; seed++) {
            String[] line = child.lineStartingWith("BATCH ").split(" ");
            assertEquals(Long.toString(seed + 1), line[0]);
            assertEquals("zero-copy", line[1], "the owner's device memory, opened from its handles");
            assertEquals(device.type().toString(), line[2], "an array of the receiver's device");
            assertEquals(expected[seed], line[3], "batch " + seed + " read in the child after copyToHost");
        }
        assertEquals("END", child.line());
    }
}
