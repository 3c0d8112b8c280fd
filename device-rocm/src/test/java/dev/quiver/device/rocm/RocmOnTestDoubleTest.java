package dev.quiver.device.rocm;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.tck.DeferredWorkChecks;
import dev.quiver.testkit.SystemProperties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behaviour of the ROCm backend beyond the conformance suite, on the test double of the HIP runtime
 * ({@code fake_libamdhip64.c}) with two devices: enumeration, the library property, asynchronous copies,
 * event polling, error mapping, the current device, pointer attributes. Not a claim about AMD hardware.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RocmOnTestDoubleTest {
    private List<BackendDevice> devices;

    @BeforeAll
    void probe() {
        ProbeResult result = RocmTestDouble.provider().probe();
        devices = assertInstanceOf(ProbeResult.Available.class, result, result.toString()).devices();
    }

    private BackendDevice device(int type, long id) {
        return devices.stream().filter(d -> d.deviceType() == type && d.deviceId() == id).findFirst().orElseThrow();
    }

    @Test
    void everyDeviceHasDeviceAndPinnedMemory() {
        assertEquals(List.of("ROCM:0", "ROCM_HOST:0", "ROCM:1", "ROCM_HOST:1"),
                devices.stream().map(d -> d.toString().substring(0, d.toString().indexOf(' '))).toList());
        BackendDevice rocm = device(DeviceTypeCodes.ROCM, 1);
        assertEquals("HIP test double (host memory)", rocm.name());
        assertEquals(2L << 30, rocm.totalMemory());
        assertEquals("5.2", rocm.properties().get("HIP"));
        assertFalse(rocm.hostAccessible());
        assertTrue(device(DeviceTypeCodes.ROCM_HOST, 1).hostAccessible());
    }

    @Test
    void theLibraryPropertySelectsTheRuntime() {
        SystemProperties.with(RocmProvider.LIBRARY_PROPERTY, RocmTestDouble.library().path().toString(), () ->
                assertEquals(devices, assertInstanceOf(ProbeResult.Available.class, new RocmProvider().probe()).devices(),
                        "the same library and devices"));
    }

    @Test
    void copiesAreAsynchronousUntilTheStreamIsSynchronized() {
        DeferredWorkChecks.copiesCompleteWhenTheStreamIsSynchronized(device(DeviceTypeCodes.ROCM, 1));
    }

    @Test
    void anEventIsIncompleteUntilItsWorkRuns() {
        DeferredWorkChecks.eventQueriesSeeProgress(device(DeviceTypeCodes.ROCM, 1));
    }

    @Test
    void runtimeErrorsNameTheCallAndTheError() {
        BackendDevice rocm = device(DeviceTypeCodes.ROCM, 0);
        MemorySegment buffer = rocm.allocate(8, 8);
        try (Arena arena = Arena.ofConfined()) {
            RocmException e = assertThrows(RocmException.class, () -> rocm.copyFromHost(arena.allocate(16), buffer, 0, MemorySegment.NULL));
            assertEquals("hipMemcpyAsync failed: hipErrorInvalidValue (test double: hipErrorInvalidValue)", e.getMessage());
            assertEquals("hipMemcpyAsync", e.call());
            assertEquals(1, e.error());
            assertEquals("hipErrorInvalidValue", e.errorName());
        } finally {
            rocm.free(buffer);
        }
        assertThrows(IllegalArgumentException.class, () -> rocm.free(buffer), "double free");
        assertThrows(IllegalArgumentException.class, () -> rocm.allocate(8, 4096));
    }

    @Test
    void callsLeaveTheThreadsCurrentDeviceAsItWas() {
        RocmTestDouble.setDevice(1);
        try {
            BackendDevice rocm = device(DeviceTypeCodes.ROCM, 0);
            rocm.free(rocm.allocate(64, 64));
            assertEquals(1, RocmTestDouble.counter("current_device"));
        } finally {
            RocmTestDouble.setDevice(0);
        }
    }

    @Test
    void pointerAttributesTellTheKindAndDeviceOfForeignMemory() {
        RocmInterop interop = new RocmInterop(RocmTestDouble.provider());
        for (BackendDevice device : devices) {
            MemorySegment pointer = device.allocate(1000, 64);
            try {
                assertEquals(Optional.of(new RocmPointerInfo(device.deviceType(), device.deviceId(), false)),
                        interop.describe(MemorySegment.ofAddress(pointer.address() + 500)), device.toString());
            } finally {
                device.free(pointer);
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(Optional.empty(), interop.describe(arena.allocate(8)), "plain host memory is not HIP memory");
        }
    }
}
