package dev.quiver.device.rocm;

import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.IpcPeer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * HIP IPC ({@code hipIpcGetMemHandle}, {@code hipIpcOpenMemHandle}, {@code hipIpcCloseMemHandle}) between
 * this JVM and a child JVM ({@link IpcPeer}), both on the test double of the HIP runtime, whose
 * {@code hipMalloc} memory lives in a memfd that the child maps from the handle. Not a claim about AMD
 * hardware.
 */
class RocmIpcOnTestDoubleTest {
    private final java.util.List<BackendDevice> devices =
            ((ProbeResult.Available) RocmTestDouble.provider().probe()).devices();

    private BackendDevice device(int type) {
        return devices.stream().filter(d -> d.deviceType() == type && d.deviceId() == 0).findFirst().orElseThrow();
    }

    @Test
    void deviceMemoryHasHipIpcAndPinnedMemoryHasNone() {
        assertEquals(IpcMechanism.HIP_IPC, device(DeviceTypeCodes.ROCM).capability(IpcMemory.class).orElseThrow().ipcMechanism());
        BackendDevice pinned = device(DeviceTypeCodes.ROCM_HOST);
        assertTrue(pinned.capability(IpcMemory.class).isEmpty(), "no IpcMemory where the mechanism is none");
    }

    @Test
    void aChildProcessReadsAndWritesTheExportedBytesAtTheirOffset() {
        long live = RocmTestDouble.counter("live_allocations");
        IpcPeer.checkRoundTrip(device(DeviceTypeCodes.ROCM), RocmProvider.class,
                Map.of(RocmProvider.LIBRARY_PROPERTY, RocmTestDouble.library().path().toString()));
        assertEquals(live, RocmTestDouble.counter("live_allocations"), "everything allocated was freed");
    }

    @Test
    void aHandleThatOverstatesItsAllocationIsRefusedWhereItIsOpened() {
        IpcPeer.checkOverstatedAllocationRefused(device(DeviceTypeCodes.ROCM), RocmProvider.class,
                Map.of(RocmProvider.LIBRARY_PROPERTY, RocmTestDouble.library().path().toString()));
    }

    @Test
    void badHandlesFailNamingTheCall() {
        long live = RocmTestDouble.counter("live_allocations");
        IpcPeer.checkBadHandles(device(DeviceTypeCodes.ROCM), "hipIpcOpenMemHandle");
        assertEquals(live, RocmTestDouble.counter("live_allocations"), "nothing stays open");
    }
}
