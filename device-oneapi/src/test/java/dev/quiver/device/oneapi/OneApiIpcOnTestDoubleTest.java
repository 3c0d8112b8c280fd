package dev.quiver.device.oneapi;

import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.IpcPeer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Level Zero IPC ({@code zeMemGetIpcHandle}, {@code zeMemOpenIpcHandle}, {@code zeMemCloseIpcHandle})
 * between this JVM and a child JVM ({@link IpcPeer}), both on the test double of the Level Zero loader,
 * whose device memory lives in a memfd that the child maps from the handle. Not a claim about Level Zero
 * hardware.
 */
class OneApiIpcOnTestDoubleTest {
    private static BackendDevice first(OneApiMemory memory) {
        return ((ProbeResult.Available) OneApiTestDouble.provider(memory).probe()).devices().get(0);
    }

    @Test
    void deviceMemoryHasLevelZeroIpcAndSharedAndHostMemoryHaveNone() {
        assertEquals(IpcMechanism.LEVEL_ZERO_IPC, first(OneApiMemory.DEVICE).capability(IpcMemory.class).orElseThrow().ipcMechanism());
        BackendDevice shared = first(OneApiMemory.SHARED);
        assertTrue(shared.capability(IpcMemory.class).isEmpty(), "no IpcMemory where the mechanism is none");
        assertTrue(first(OneApiMemory.HOST).capability(IpcMemory.class).isEmpty(), "no IpcMemory where the mechanism is none");
    }

    @Test
    void aChildProcessReadsAndWritesTheExportedBytesAtTheirOffset() {
        BackendDevice device = first(OneApiMemory.DEVICE);
        long live = OneApiTestDouble.library().liveResources().get("allocations");
        IpcPeer.checkRoundTrip(device, OneApiProvider.class, Map.of(OneApiProvider.LIBRARY_PROPERTY,
                OneApiTestDouble.library().path().toString(), OneApiProvider.MEMORY_PROPERTY, "device"));
        assertEquals(live, OneApiTestDouble.library().liveResources().get("allocations"), "everything allocated was freed");
    }

    @Test
    void aHandleThatOverstatesItsAllocationIsRefusedWhereItIsOpened() {
        IpcPeer.checkOverstatedAllocationRefused(first(OneApiMemory.DEVICE), OneApiProvider.class, Map.of(OneApiProvider.LIBRARY_PROPERTY,
                OneApiTestDouble.library().path().toString(), OneApiProvider.MEMORY_PROPERTY, "device"));
    }

    @Test
    void badHandlesFailNamingTheCall() {
        BackendDevice device = first(OneApiMemory.DEVICE);
        long live = OneApiTestDouble.library().liveResources().get("allocations");
        IpcPeer.checkBadHandles(device, "zeMemOpenIpcHandle");
        assertEquals(live, OneApiTestDouble.library().liveResources().get("allocations"), "nothing stays open");
    }
}
