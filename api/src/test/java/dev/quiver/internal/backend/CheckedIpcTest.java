package dev.quiver.internal.backend;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.host.HostDevice;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks the API puts in front of a backend's inter-process memory, and the refusals of a device that lacks a
 * capability. The backend's side is {@link RecordingIpcMemory}, a test double that records what reaches it; no real
 * component offers inter-process memory in this module.
 */
class CheckedIpcTest {
    private final CheckedBackendDevice view = new CheckedBackendDevice(HostDevice.instance());

    @Test
    void badArgumentsAreRefusedBeforeTheBackendIsCalledAndTheRestPassOn() {
        RecordingIpcMemory backend = new RecordingIpcMemory();
        CheckedIpc ipc = new CheckedIpc(backend, null, null, view);
        MemorySegment pointer = MemorySegment.ofAddress(1 << 20);
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> ipc.exportMemory(pointer, -1));
        assertTrue(negative.getMessage().contains("offset"), negative.getMessage());
        IllegalArgumentException nullPointer = assertThrows(IllegalArgumentException.class, () -> ipc.exportMemory(MemorySegment.NULL, 0));
        assertTrue(nullPointer.getMessage().contains("pointer is NULL"), nullPointer.getMessage());
        assertThrows(NullPointerException.class, () -> ipc.openMemory(null));
        assertEquals(List.of(), backend.calls, "nothing refused reaches the backend");

        IpcMemoryHandle handle = ipc.exportMemory(pointer, 8);
        assertEquals(8, handle.offset());
        assertEquals(IpcMechanism.CUDA_IPC, ipc.ipcMechanism());
        assertEquals(List.of("export " + pointer.address() + " at 8"), backend.calls);
    }

    @Test
    void aDeviceWithoutACapabilityIsRefusedNamingTheDeviceAndWhatItLacks() {
        UnsupportedOperationException events = assertThrows(UnsupportedOperationException.class, () -> Capabilities.events(view));
        assertTrue(events.getMessage().contains("has no events") && events.getMessage().contains("CPU"), events.getMessage());
        UnsupportedOperationException waits = assertThrows(UnsupportedOperationException.class, () -> Capabilities.waits(view));
        assertTrue(waits.getMessage().contains("has no events"), waits.getMessage());
        assertEquals(IpcMechanism.NONE, Capabilities.ipcMechanism(view));
        assertTrue(view.capability(DeviceEvents.class).isEmpty());
        assertTrue(view.capability(EventWaits.class).isEmpty());
        assertTrue(view.capability(IpcMemory.class).isEmpty());
        assertTrue(view.capability(NativeAdoption.class).isPresent(), "the checked view adopts the streams a device made, as the API always has");
    }

    /** A test double of a backend's inter-process memory: it records each call and hands out a made-up handle. */
    private static final class RecordingIpcMemory implements IpcMemory {
        final List<String> calls = new ArrayList<>();

        @Override
        public IpcMechanism ipcMechanism() {
            return IpcMechanism.CUDA_IPC;
        }

        @Override
        public IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
            calls.add("export " + pointer.address() + " at " + offset);
            return new IpcMemoryHandle(IpcMechanism.CUDA_IPC, new byte[64], -1, offset, 1 << 20);
        }

        @Override
        public ImportedMemory openMemory(IpcMemoryHandle handle) {
            calls.add("open");
            throw new AssertionError("not opened in this test");
        }
    }
}
