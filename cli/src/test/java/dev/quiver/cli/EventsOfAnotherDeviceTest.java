package dev.quiver.cli;

import dev.quiver.plugin.Backends;
import dev.quiver.Device;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.SyncEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An event recorded on one real device (OpenCL on PoCL, Vulkan on lavapipe) cannot be adopted by the
 * other: the message names the event and both devices, and the event stays usable where it belongs.
 */
class EventsOfAnotherDeviceTest {
    private static final Devices DEVICES = Devices.system();

    @ParameterizedTest(name = "{0} event adopted on {1}")
    @CsvSource({"OPENCL, VULKAN", "VULKAN, OPENCL"})
    void adoptionIsRefusedAndTheEventStaysUsable(String owner, String adopter) {
        Device from = DEVICES.get(DeviceType.byName(owner).orElseThrow(), 0);
        Device to = DEVICES.get(DeviceType.byName(adopter).orElseThrow(), 0);
        try (DeviceStream stream = from.createStream(); SyncEvent event = stream.recordEvent()) {
            String hex = "0x" + Long.toHexString(event.handle().address());
            for (boolean owned : new boolean[] {true, false}) {
                var error = assertThrows(IllegalArgumentException.class, () -> to.adoptEvent(event.handle(), owned));
                String message = error.getMessage();
                assertTrue(message.startsWith("nativeEvent " + hex + " is event of " + Backends.of(from))
                        && message.endsWith("not of " + Backends.of(to)), message);
            }
            stream.waitFor(event);
            event.waitOnHost();
            assertTrue(event.isComplete());
        }
    }
}
