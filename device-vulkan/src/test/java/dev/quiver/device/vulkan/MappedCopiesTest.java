package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
import static org.lwjgl.vulkan.VK10.VK_WHOLE_SIZE;

/**
 * Copies between the host and buffers whose memory is host-visible (all of lavapipe's): written and read on
 * the mapped pointer, staged while work is pending on the buffer, and in stream order either way; and the
 * flush and invalidation ranges for memory that is not host-coherent, which lavapipe does not have.
 */
class MappedCopiesTest {
    private static final int SIZE = 1 << 20;
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void hostVisibleBuffersAreMappedAndCopiedAtAnyOffset() {
        MemorySegment buffer = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofConfined()) {
            BufferMemory memory = allocation(buffer).memory;
            assertTrue((memory.propertyFlags() & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0, "lavapipe's memory is host-visible");
            assertNotNull(allocation(buffer).mapping, "so the buffer is mapped");
            for (int offset : new int[] {0, 1, 4095, SIZE - 100}) {
                byte[] bytes = pattern(Math.min(SIZE - offset, 70_000), offset);
                device.copyFromHost(arena.allocateFrom(JAVA_BYTE, bytes), buffer, offset, device.defaultStream());
                MemorySegment back = arena.allocate(bytes.length);
                device.copyToHost(buffer, offset, back, device.defaultStream());
                assertArrayEquals(bytes, back.toArray(JAVA_BYTE), "offset " + offset);
            }
        } finally {
            device.free(buffer);
        }
    }

    @Test
    void writesWhileWorkIsPendingKeepTheirPlaceInTheStream() {
        MemorySegment stream = device.createStream();
        MemorySegment first = device.allocate(SIZE, 64);
        MemorySegment second = device.allocate(SIZE, 64);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 20; round++) {
                byte[] before = pattern(SIZE, round);
                byte[] after = pattern(SIZE, round + 1000);
                device.copyFromHost(arena.allocateFrom(JAVA_BYTE, before), first, 0, stream);
                device.copyWithinDevice(first, 0, second, 0, SIZE, stream);
                device.copyFromHost(arena.allocateFrom(JAVA_BYTE, after), first, 0, stream);
                MemorySegment back = arena.allocate(SIZE);
                device.copyToHost(second, 0, back, stream);
                assertArrayEquals(before, back.toArray(JAVA_BYTE), "round " + round + ": the device copy read the first write");
                device.copyToHost(first, 0, back, stream);
                assertArrayEquals(after, back.toArray(JAVA_BYTE), "round " + round + ": then the second write landed");
            }
        } finally {
            device.free(first);
            device.free(second);
            device.destroyStream(stream);
        }
    }

    @Test
    void flushAndInvalidationRangesCoverWholeAtoms() {
        assertEquals(new HostMapping.Range(0, 256), HostMapping.Range.of(0, 1, 256, 4096));
        assertEquals(new HostMapping.Range(256, 512), HostMapping.Range.of(300, 400, 256, 4096));
        assertEquals(new HostMapping.Range(512, 256), HostMapping.Range.of(512, 256, 256, 4096));
        assertEquals(new HostMapping.Range(3840, VK_WHOLE_SIZE), HostMapping.Range.of(4000, 96, 256, 4096), "to the end of the memory");
        assertEquals(new HostMapping.Range(3840, VK_WHOLE_SIZE), HostMapping.Range.of(3900, 10, 256, 4000),
                "rounding past the end of a memory that is no whole number of atoms");
        assertEquals(new HostMapping.Range(7, 3), HostMapping.Range.of(7, 3, 1, 4096), "coherent-sized atoms of one byte");
    }

    private Allocation allocation(MemorySegment buffer) {
        return device.allocationOf(buffer);
    }

    private static byte[] pattern(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 13 + seed * 7 + 1);
        }
        return bytes;
    }
}
