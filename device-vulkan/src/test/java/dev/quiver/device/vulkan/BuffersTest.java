package dev.quiver.device.vulkan;

import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a pointer of the Vulkan backend is: a {@code VkBuffer} with a size Quiver checks every copy against. */
class BuffersTest {
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void zeroBytesIsARealDistinctBufferThatReadsAsEmpty() {
        MemorySegment first = device.allocate(0, 64);
        MemorySegment second = device.allocate(0, 64);
        try (Arena arena = Arena.ofConfined()) {
            assertNotEquals(MemorySegment.NULL, first, "Vulkan forbids empty buffers: a 1-byte VkBuffer stands in");
            assertNotEquals(first.address(), second.address(), "each empty allocation is its own VkBuffer");
            assertTrue(device.deviceMemory(first).isPresent());
            device.copyFromHost(arena.allocate(0), first, 0, device.defaultStream());
            device.copyToHost(first, 0, arena.allocate(0), device.defaultStream());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> device.copyFromHost(arena.allocate(1), first, 0, device.defaultStream()));
            assertTrue(e.getMessage().contains("past the end of the 0-byte VkBuffer"), e.getMessage());
        } finally {
            device.free(first);
            device.free(second);
        }
    }

    @Test
    void copiesOutsideTheBufferAreRejectedNamingTheRange() {
        MemorySegment buffer = device.allocate(100, 64);
        MemorySegment other = device.allocate(100, 64);
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                    () -> device.copyToHost(buffer, 90, arena.allocate(20), device.defaultStream()));
            assertEquals("source range [90, 90 + 20) is past the end of the 100-byte VkBuffer 0x" + Long.toHexString(buffer.address()),
                    past.getMessage());
            assertThrows(IllegalArgumentException.class, () -> device.copyFromHost(arena.allocate(1), buffer, -1, device.defaultStream()));
            assertThrows(IllegalArgumentException.class, () -> device.copyWithinDevice(buffer, 0, other, 1, 100, device.defaultStream()));
            assertThrows(IllegalArgumentException.class, () -> device.copyToHost(MemorySegment.NULL, 0, arena.allocate(1), device.defaultStream()));
        } finally {
            device.free(buffer);
            device.free(other);
        }
    }

    @Test
    void overlappingCopiesWithinOneBufferMoveLikeMemmove() {
        MemorySegment buffer = device.allocate(256, 64);
        try (Arena arena = Arena.ofConfined()) {
            byte[] pattern = new byte[256];
            for (int i = 0; i < pattern.length; i++) {
                pattern[i] = (byte) i;
            }
            device.copyFromHost(arena.allocateFrom(JAVA_BYTE, pattern), buffer, 0, device.defaultStream());
            device.copyWithinDevice(buffer, 0, buffer, 10, 100, device.defaultStream());
            device.copyWithinDevice(buffer, 150, buffer, 140, 100, device.defaultStream());
            byte[] expected = pattern.clone();
            System.arraycopy(expected, 0, expected, 10, 100);
            System.arraycopy(expected, 150, expected, 140, 100);
            MemorySegment back = arena.allocate(256);
            device.copyToHost(buffer, 0, back, device.defaultStream());
            assertArrayEquals(expected, back.toArray(JAVA_BYTE));
        } finally {
            device.free(buffer);
        }
    }

    @Test
    void freeIsExactlyOnceAndOnlyForOwnBuffers() {
        MemorySegment buffer = device.allocate(10, 64);
        device.free(buffer);
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> device.free(buffer));
        assertTrue(twice.getMessage().contains("was not allocated by") && twice.getMessage().contains("already freed"), twice.getMessage());
        device.free(MemorySegment.NULL);
    }

    @Test
    void freeingWaitsForTheCopiesStillUsingTheBuffer() {
        MemorySegment stream = device.createStream();
        long size = 8 << 20;
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < 4; i++) {
                MemorySegment pattern = arena.allocate(size, 64);
                for (long at = 0; at < size; at += 8) {
                    pattern.set(java.lang.foreign.ValueLayout.JAVA_LONG, at, at * 31 + i);
                }
                MemorySegment source = device.allocate(size, 64);
                MemorySegment target = device.allocate(size, 64);
                device.copyFromHost(pattern, source, 0, stream);
                device.copyWithinDevice(source, 0, target, 0, size, stream);
                device.free(source);   // while the copies that read it may still be running
                MemorySegment back = arena.allocate(size, 64);
                device.copyToHost(target, 0, back, stream);
                device.synchronizeStream(stream);
                assertEquals(-1, back.mismatch(pattern), "the copy read the freed buffer's bytes intact, round " + i);
                device.free(target);
            }
        } finally {
            device.destroyStream(stream);
        }
    }

    @Test
    void allocationsBeyondTheDeviceLimitOrWithBadArgumentsFailClearly() {
        long limit = device.context().info().maxAllocation();
        DeviceException tooLarge = assertThrows(DeviceException.class, () -> device.allocate(limit + 1, 64));
        assertTrue(tooLarge.getMessage().contains("maxMemoryAllocationSize"), tooLarge.getMessage());
        BackendDevice served = Backends.of(Backends.devices(List.of(new VulkanProvider()), BackendSelection.all()).all().stream()
                .filter(d -> d.name().equals(device.name())).findFirst().orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> served.allocate(-1, 64));
        assertThrows(IllegalArgumentException.class, () -> served.allocate(64, 3));
    }

    @Test
    void streamsAreTableEntriesDestroyedOnce() {
        MemorySegment stream = device.createStream();
        device.synchronizeStream(stream);
        device.destroyStream(stream);
        assertThrows(IllegalArgumentException.class, () -> device.destroyStream(stream));
        assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(stream));
        assertThrows(IllegalArgumentException.class, () -> device.destroyStream(device.defaultStream()), "the default stream is borrowed");
    }
}
