package dev.quiver.device.cuda;

import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.testkit.IpcPeer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * CUDA IPC ({@code cuIpcGetMemHandle}, {@code cuIpcOpenMemHandle}, {@code cuIpcCloseMemHandle}) between
 * this JVM and a child JVM ({@link IpcPeer}), both on the test double of the CUDA driver, whose
 * {@code cuMemAlloc} memory lives in a memfd that the child maps from the handle. Not a claim about NVIDIA
 * hardware.
 */
class CudaIpcOnTestDoubleTest {
    private final BackendDevice device = CudaTestDouble.device(DeviceTypeCodes.CUDA, 0);

    @Test
    void deviceMemoryHasCudaIpcAndPinnedAndManagedMemoryHaveNone() {
        assertEquals(IpcMechanism.CUDA_IPC, device.capability(IpcMemory.class).orElseThrow().ipcMechanism());
        BackendDevice pinned = CudaTestDouble.device(DeviceTypeCodes.CUDA_HOST, 0);
        assertTrue(pinned.capability(IpcMemory.class).isEmpty(), "no IpcMemory where the mechanism is none");
        assertTrue(CudaTestDouble.device(DeviceTypeCodes.CUDA_MANAGED, 0).capability(IpcMemory.class).isEmpty(), "no IpcMemory where the mechanism is none");
    }

    @Test
    void aChildProcessReadsAndWritesTheExportedBytesAtTheirOffset() {
        long live = CudaTestDouble.counter("live_allocations");
        IpcPeer.checkRoundTrip(device, CudaProvider.class, Map.of(CudaProvider.LIBRARY_PROPERTY, CudaTestDouble.library().path().toString()));
        assertEquals(live, CudaTestDouble.counter("live_allocations"), "everything allocated was freed");
    }

    @Test
    void aHandleThatOverstatesItsAllocationIsRefusedWhereItIsOpened() {
        long live = CudaTestDouble.counter("live_allocations");
        IpcPeer.checkOverstatedAllocationRefused(device, CudaProvider.class,
                Map.of(CudaProvider.LIBRARY_PROPERTY, CudaTestDouble.library().path().toString()));
        assertEquals(live, CudaTestDouble.counter("live_allocations"), "everything allocated was freed");
    }

    @Test
    void badHandlesFailNamingTheCall() {
        long live = CudaTestDouble.counter("live_allocations");
        IpcPeer.checkBadHandles(device, "cuIpcOpenMemHandle");
        assertEquals(live, CudaTestDouble.counter("live_allocations"), "nothing stays open");
    }
}
