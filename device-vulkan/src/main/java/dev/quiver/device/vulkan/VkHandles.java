package dev.quiver.device.vulkan;

import java.lang.foreign.MemorySegment;

/**
 * The check every method makes of a Vulkan handle the SPI hands in as a segment: that it is not
 * {@code VK_NULL_HANDLE}. Stateless; callable from any thread.
 */
final class VkHandles {
    private VkHandles() {
    }

    /**
     * @param segment a handle carried as a segment's address
     * @param what    what the handle is, for the message
     * @return the handle
     * @throws IllegalArgumentException if it is {@code VK_NULL_HANDLE}
     */
    static long require(MemorySegment segment, String what) {
        if (segment.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(what + " is VK_NULL_HANDLE");
        }
        return segment.address();
    }
}
