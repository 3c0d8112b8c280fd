package dev.quiver;

import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMemory;
import dev.quiver.plugin.Backends;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.testsupport.HostProvider;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a device says about reaching another process, and how the checked backend view passes the calls on. */
class InterProcessMemoryTest {
    private static final Devices DEVICES = Backends.devices(List.of(HostProvider.host()), BackendSelection.all());

    @Test
    void theHostHasNoMechanismAndSaysItsMemoryIsCopied() {
        InterProcessMemory memory = DEVICES.cpu().interProcessMemory();
        assertEquals(InterProcessMemory.NONE, memory.mechanism());
        assertTrue(memory.isCopied());
        assertEquals("none (copied through shared host memory)", memory.description());
        assertEquals(0, memory.handleBytes());
        assertFalse(memory.events(), "no events travel where nothing does");
    }

    @Test
    void theCheckedViewRefusesBadArgumentsAndPassesTheRestToTheBackend() {
        var backend = Backends.of(DEVICES.cpu());
        assertTrue(backend.capability(IpcMemory.class).isEmpty(), "no IpcMemory where the mechanism is none");
        assertFalse(backend.capability(IpcEvents.class).isPresent());
    }

    @Test
    void handlesAndMechanismsRejectImpossibleParts() {
        assertThrows(IllegalArgumentException.class, () -> new InterProcessMemory("CUDA_IPC", "x", -1));
        assertThrows(IllegalArgumentException.class, () -> new IpcMemoryHandle(IpcMechanism.NONE, new byte[0], -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new IpcMemoryHandle(IpcMechanism.HIP_IPC, new byte[63], -1, 0, 64));
        assertThrows(IllegalArgumentException.class, () -> new IpcMemoryHandle(IpcMechanism.HIP_IPC, new byte[64], -1, 64, 64));
        assertThrows(IllegalArgumentException.class, () -> new IpcMemoryHandle(IpcMechanism.VULKAN_FD, new byte[0], -1, 0, 64));
        assertThrows(IllegalArgumentException.class, () -> new IpcEventHandle(IpcMechanism.LEVEL_ZERO_IPC, new byte[64]));
        assertThrows(IllegalArgumentException.class, () -> new IpcEventHandle(IpcMechanism.CUDA_IPC, new byte[63]));
        byte[] bytes = new byte[64];
        IpcEventHandle event = new IpcEventHandle(IpcMechanism.HIP_IPC, bytes);
        IpcMemoryHandle handle = new IpcMemoryHandle(IpcMechanism.LEVEL_ZERO_IPC, bytes, -1, 8, 64);
        bytes[0] = 1;
        assertEquals(0, handle.handle()[0], "the handle keeps its own copy of the bytes");
        assertEquals(0, event.handle()[0], "the event handle keeps its own copy of the bytes");
        assertEquals(new IpcEventHandle(IpcMechanism.HIP_IPC, new byte[64]), event);
    }
}
