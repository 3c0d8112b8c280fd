package dev.quiver.device.rocm;

import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.IpcEventPeer;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HIP IPC of events ({@code hipEventCreateWithFlags} with {@code hipEventInterprocess}, {@code hipIpcGetEventHandle},
 * {@code hipIpcOpenEventHandle}) between this JVM and a child JVM ({@link IpcEventPeer}), both on the test double
 * of the HIP runtime, which keeps an inter-process event's completion in a memfd page the child maps and runs the
 * owner's stream only when the owner waits for it. Not a claim about AMD hardware.
 */
class RocmIpcEventsOnTestDoubleTest {
    private final java.util.List<BackendDevice> devices =
            ((ProbeResult.Available) RocmTestDouble.provider().probe()).devices();
    private final BackendDevice device = device(DeviceTypeCodes.ROCM);
    private final Map<String, String> properties = Map.of(RocmProvider.LIBRARY_PROPERTY, RocmTestDouble.library().path().toString());

    private BackendDevice device(int type) {
        return devices.stream().filter(d -> d.deviceType() == type && d.deviceId() == 0).findFirst().orElseThrow();
    }

    @Test
    void deviceMemorySharesEventsAndPinnedMemoryDoesNot() {
        long events = RocmTestDouble.counter("live_events");
        assertTrue(device.capability(IpcEvents.class).isPresent());
        assertEquals(events, RocmTestDouble.counter("live_events"), "the event made to find out was destroyed");
        BackendDevice pinned = device(DeviceTypeCodes.ROCM_HOST);
        assertFalse(pinned.capability(IpcEvents.class).isPresent());
    }

    @Test
    void aChildProcessWaitsOnTheExportedEventBeforeItsCopyAndEveryoneReleasesWhatTheyMade() {
        assertFalse(IpcEventPeer.checkEventOrdersPeerWork(device, RocmProvider.class, properties, IpcEventPeer.LiveCounters.TEST_DOUBLE),
                "the owner's copy had not run when the child opened the event");
    }

    @Test
    void badEventHandlesFailNamingTheCallAndLeaveNothingLive() {
        IpcEventPeer.checkBadEventHandles(device, "hipIpcOpenEventHandle", "hipIpcGetEventHandle", IpcEventPeer.LiveCounters.TEST_DOUBLE);
    }
}
