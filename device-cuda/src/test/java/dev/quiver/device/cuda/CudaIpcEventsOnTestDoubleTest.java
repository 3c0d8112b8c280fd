package dev.quiver.device.cuda;

import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.testkit.IpcEventPeer;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CUDA IPC of events ({@code cuEventCreate} with {@code CU_EVENT_INTERPROCESS}, {@code cuIpcGetEventHandle},
 * {@code cuIpcOpenEventHandle}) between this JVM and a child JVM ({@link IpcEventPeer}), both on the test double
 * of the CUDA driver, which keeps an inter-process event's completion in a memfd page the child maps and runs
 * the owner's stream only when the owner waits for it. Not a claim about NVIDIA hardware.
 */
class CudaIpcEventsOnTestDoubleTest {
    private final BackendDevice device = CudaTestDouble.device(DeviceTypeCodes.CUDA, 0);
    private final Map<String, String> properties = Map.of(CudaProvider.LIBRARY_PROPERTY, CudaTestDouble.library().path().toString());

    @Test
    void deviceMemorySharesEventsAndPinnedAndManagedMemoryDoNot() {
        assertTrue(device.capability(IpcEvents.class).isPresent());
        assertTrue(IpcMechanism.CUDA_IPC.eventHandleBytes() > 0);
        BackendDevice pinned = CudaTestDouble.device(DeviceTypeCodes.CUDA_HOST, 0);
        assertFalse(pinned.capability(IpcEvents.class).isPresent());
        assertFalse(CudaTestDouble.device(DeviceTypeCodes.CUDA_MANAGED, 0).capability(IpcEvents.class).isPresent());
    }

    @Test
    void aChildProcessWaitsOnTheExportedEventBeforeItsCopyAndEveryoneReleasesWhatTheyMade() {
        assertFalse(IpcEventPeer.checkEventOrdersPeerWork(device, CudaProvider.class, properties, IpcEventPeer.LiveCounters.TEST_DOUBLE),
                "the owner's copy had not run when the child opened the event");
    }

    @Test
    void badEventHandlesFailNamingTheCallAndLeaveNothingLive() {
        IpcEventPeer.checkBadEventHandles(device, "cuIpcOpenEventHandle", "cuIpcGetEventHandle", IpcEventPeer.LiveCounters.TEST_DOUBLE);
    }

    @Test
    void aHandleOfTheWrongLengthCannotBeMade() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new IpcEventHandle(IpcMechanism.CUDA_IPC, new byte[IpcMechanism.CUDA_IPC.eventHandleBytes() + 1]));
        assertTrue(refused.getMessage().contains("CUDA_IPC event handles are 64 bytes, not 65"), refused.getMessage());
    }
}
