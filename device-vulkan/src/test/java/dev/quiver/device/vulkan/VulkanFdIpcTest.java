package dev.quiver.device.vulkan;

import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.testkit.IpcPeer;
import dev.quiver.testkit.PosixFiles;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code VK_KHR_external_memory_fd} on lavapipe: buffers exported as opaque file descriptors and opened in a
 * child JVM ({@link IpcPeer}) with the validation layer on there too, and in this process, with the offset
 * beside the buffer handle.
 */
class VulkanFdIpcTest {
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void lavapipeSharesMemoryAsOpaqueFileDescriptors() {
        assertEquals(IpcMechanism.VULKAN_FD, device.ipcMechanism());
    }

    @Test
    void aChildProcessReadsAndWritesTheExportedBytesAtTheirOffset() {
        IpcPeer.checkRoundTripBesideHandle(device, VulkanProvider.class, childProperties());
    }

    /** {@return the system properties a child runs Vulkan with as this JVM does} */
    private static Map<String, String> childProperties() {
        Map<String, String> properties = new HashMap<>();
        for (String key : new String[] {"quiver.vulkan.validation", "org.lwjgl.system.memoryBackend", "org.lwjgl.vulkan.libname"}) {
            String value = System.getProperty(key);
            if (value != null) {
                properties.put(key, value);
            }
        }
        return properties;
    }

    @Test
    void memoryOpenedFromADescriptorIsANewBufferOnTheSameBytes() {
        MemorySegment buffer = device.allocate(300, 64);
        IpcMemoryHandle handle = device.exportMemory(buffer, 100);
        try (Arena arena = Arena.ofConfined()) {
            assertTrue(handle.fileDescriptor() >= 0, handle.toString());
            assertEquals(0, handle.handle().length, "the descriptor is the handle");
            assertEquals(100, handle.offset());
            assertTrue(handle.allocationSize() >= 300, handle.toString());
            ImportedMemory opened = device.openMemory(handle);
            assertNotEquals(buffer.address(), opened.pointer().address(), "a VkBuffer of its own");
            assertEquals(handle.allocationSize(), opened.byteSize());
            byte[] written = {1, 2, 3, 4, 5, 6, 7, 8};
            device.copyFromHost(arena.allocateFrom(JAVA_BYTE, written), opened.pointer(), handle.offset(), device.defaultStream());
            device.synchronizeStream(device.defaultStream());
            MemorySegment back = arena.allocate(written.length);
            device.copyToHost(buffer, 100, back, device.defaultStream());
            assertArrayEquals(written, back.toArray(JAVA_BYTE), "the exporter's buffer sees the importer's bytes");

            IllegalArgumentException freed = assertThrows(IllegalArgumentException.class, () -> device.free(opened.pointer()));
            assertTrue(freed.getMessage().contains("close its ImportedMemory"), freed.getMessage());
            IllegalArgumentException reexported = assertThrows(IllegalArgumentException.class, () -> device.exportMemory(opened.pointer(), 0));
            assertTrue(reexported.getMessage().contains("opened from another process"), reexported.getMessage());
            opened.close();
            opened.close();
            assertTrue(opened.isClosed());
            assertFalse(device.deviceMemory(opened.pointer()).isPresent(), "closing destroyed the imported buffer");
            device.copyToHost(buffer, 100, back, device.defaultStream());
            assertArrayEquals(written, back.toArray(JAVA_BYTE), "the exporter's memory outlives the import");
        } finally {
            PosixFiles.close(handle.fileDescriptor());
            device.free(buffer);
        }
    }

    @Test
    void aHandleThatOverstatesItsAllocationIsRefusedInTheChildByTheHeaderOfItsMemoryFile() {
        MemorySegment buffer = device.allocate(64, 64);
        IpcMemoryHandle real = device.exportMemory(buffer, 0);
        try {
            IpcMemoryHandle lying = new IpcMemoryHandle(IpcMechanism.VULKAN_FD, new byte[0], real.fileDescriptor(), 0,
                    real.allocationSize() + (1 << 20));
            AssertionError refused = assertThrows(AssertionError.class,
                    () -> IpcPeer.openInChild(VulkanProvider.class, childProperties(), device, lying, 8, new byte[0]));
            assertTrue(refused.getMessage().contains("IllegalArgumentException: the descriptor's memory file header says ")
                    && refused.getMessage().contains(" for an allocation of " + lying.allocationSize() + " bytes"), refused.getMessage());
        } finally {
            PosixFiles.close(real.fileDescriptor());
            device.free(buffer);
        }
    }

    @Test
    void badExportsAndHandlesFailNamingWhatWasWrong() {
        MemorySegment buffer = device.allocate(64, 64);
        try {
            IllegalArgumentException past = assertThrows(IllegalArgumentException.class, () -> device.exportMemory(buffer, 65));
            assertTrue(past.getMessage().contains("offset 65 lies outside the 64-byte VkBuffer"), past.getMessage());
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                    () -> device.exportMemory(MemorySegment.ofAddress(0x1234), 0));
            assertTrue(foreign.getMessage().contains("0x1234 is not a buffer"), foreign.getMessage());

            IllegalArgumentException mechanism = assertThrows(IllegalArgumentException.class,
                    () -> device.openMemory(new IpcMemoryHandle(IpcMechanism.CUDA_IPC, new byte[64], -1, 0, 64)));
            assertTrue(mechanism.getMessage().contains("opens VULKAN_FD handles"), mechanism.getMessage());
            IllegalArgumentException noSize = assertThrows(IllegalArgumentException.class,
                    () -> device.openMemory(new IpcMemoryHandle(IpcMechanism.VULKAN_FD, new byte[0], 0, 0, -1)));
            assertTrue(noSize.getMessage().contains("needs the exported allocationSize"), noSize.getMessage());

            IpcMemoryHandle handle = device.exportMemory(buffer, 0);
            PosixFiles.close(handle.fileDescriptor());
            IllegalArgumentException closed = assertThrows(IllegalArgumentException.class, () -> device.openMemory(handle));
            assertTrue(closed.getMessage().contains("file descriptor " + handle.fileDescriptor() + " is not open"), closed.getMessage());
        } finally {
            device.free(buffer);
        }
    }
}
