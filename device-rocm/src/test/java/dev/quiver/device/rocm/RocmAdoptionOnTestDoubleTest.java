package dev.quiver.device.rocm;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.tck.AdoptionChecks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Native handles and adoption in the ROCm backend, on the test double of the HIP runtime
 * ({@code fake_libamdhip64.c}, two devices): streams and events made with the test double's HIP API, as an
 * application makes them, are adopted, used in every operation, forgotten with and without destroying, and
 * counted in the test double; handles of no live object are refused, and so is a stream of another device,
 * which the test double (stricter than HIP 5.2, which has no query of a stream's device) reports. Not a
 * claim about AMD hardware.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RocmAdoptionOnTestDoubleTest {
    private List<BackendDevice> devices;

    @BeforeAll
    void twoDevices() {
        devices = assertInstanceOf(ProbeResult.Available.class, RocmTestDouble.provider().probe()).devices();
    }

    private BackendDevice rocm(long id) {
        return devices.stream().filter(d -> d.deviceType() == DeviceTypeCodes.ROCM && d.deviceId() == id).findFirst().orElseThrow();
    }

    private static long live(String kind) {
        return RocmTestDouble.library().liveResources().get(kind);
    }

    @Test
    void nativeHandlesAreTheDevice() {
        assertEquals(Map.of("hipDevice_t", MemorySegment.ofAddress(1)), rocm(1).capability(NativeAdoption.class).orElseThrow().nativeHandles());
        assertEquals(Map.of("hipDevice_t", MemorySegment.ofAddress(0)), rocm(0).capability(NativeAdoption.class).orElseThrow().nativeHandles());
    }

    @Test
    void anApplicationStreamAndEventAreAdoptedUsedAndForgotten() {
        NativeAdoption adoption = rocm(1).capability(NativeAdoption.class).orElseThrow();
        DeviceEvents events = rocm(1).capability(DeviceEvents.class).orElseThrow();
        MemorySegment stream = RocmTestDouble.applicationStream(1);
        MemorySegment event = RocmTestDouble.applicationEvent(1);
        assertEquals(List.of(stream, event), List.of(adoption.adoptStream(stream), events.adoptEvent(event)), "HIP handles are their own handles");
        AdoptionChecks.nativeStreamServesEveryOperation(rocm(1), stream, () -> live("streams"));
        AdoptionChecks.nativeEventServesEveryOperation(rocm(1), event, () -> live("events"));
        assertEquals(0, RocmTestDouble.counter("current_device"), "the thread's current device is as it was");
    }

    @Test
    void handlesOfAnotherDeviceOrOfNoLiveObjectAreRefused() {
        NativeAdoption adoption = rocm(0).capability(NativeAdoption.class).orElseThrow();
        DeviceEvents events = rocm(0).capability(DeviceEvents.class).orElseThrow();
        NativeAdoption owner = rocm(1).capability(NativeAdoption.class).orElseThrow();
        MemorySegment foreign = RocmTestDouble.applicationStream(1);
        try {
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> adoption.adoptStream(foreign));
            assertTrue(other.getMessage().contains("is not of ROCM:0") && other.getMessage().contains("hipErrorInvalidDevice"),
                    other.getMessage());
        } finally {
            owner.forgetStream(foreign, true);
        }
        IllegalArgumentException gone = assertThrows(IllegalArgumentException.class, () -> owner.adoptStream(foreign));
        assertTrue(gone.getMessage().contains("is not live") && gone.getMessage().contains("hipErrorInvalidHandle"), gone.getMessage());
        IllegalArgumentException noEvent = assertThrows(IllegalArgumentException.class, () -> events.adoptEvent(MemorySegment.ofAddress(8)));
        assertTrue(noEvent.getMessage().startsWith("hipEvent_t 0x8 is not live"), noEvent.getMessage());
        assertEquals("hipEvent_t is NULL", assertThrows(IllegalArgumentException.class, () -> events.adoptEvent(MemorySegment.NULL)).getMessage());
        assertEquals(MemorySegment.NULL, adoption.adoptStream(MemorySegment.NULL), "the null stream");
    }
}
