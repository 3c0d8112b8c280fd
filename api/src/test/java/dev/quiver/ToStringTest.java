package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the API's objects print: enough to tell them apart in a log, never an object id. */
class ToStringTest {
    private final Devices devices = Backends.devices(List.of(new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0),
            TestDoubleProvider.unavailable("rocm", DeviceTypeCodes.ROCM, "no ROCm device")), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);

    @Test
    void devicesStreamsAndEventsNameTheirDeviceAndKind() {
        assertTrue(device.toString().startsWith("EXT_DEV:0 ") && device.toString().endsWith(" [ext]"), device.toString());
        assertTrue(devices.toString().startsWith("Devices[EXT_DEV:0 ") && devices.toString().contains("rocm UNAVAILABLE (no ROCm device)"),
                devices.toString());
        DeviceStream stream = device.createStream();
        SyncEvent event = stream.recordEvent();
        assertEquals("DeviceStream[EXT_DEV:0, created]", stream.toString());
        assertEquals("DeviceStream[EXT_DEV:0, default]", device.defaultStream().toString());
        assertEquals("SyncEvent[EXT_DEV:0, owned]", event.toString());
        event.close();
        stream.close();
        assertEquals("DeviceStream[EXT_DEV:0, created, closed]", stream.toString());
    }

    @Test
    void anArrayPrintsItsDeviceFieldAndCountsAndWhenItIsClosed() {
        DeviceArray array = HostVector.int64("x", 1L, null).toDeviceArray(devices);
        try (DeviceArray copy = Copies.toDevice(array, device)) {
            assertTrue(copy.toString().startsWith("DeviceArray EXT_DEV:0 \"x\" l, length 2, offset 0, null_count 1, 2 buffers, 0 children, sync_event"),
                    copy.toString());
            assertEquals("SyncEvent[EXT_DEV:0, of an array]", copy.syncEvent().orElseThrow().toString());
        }
        array.close();
        assertEquals("DeviceArray CPU:-1 \"x\" (closed)", array.toString());
    }
}
