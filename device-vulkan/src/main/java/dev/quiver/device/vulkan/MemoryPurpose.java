package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;

import java.util.List;
import java.util.Locale;

import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT;
import static org.lwjgl.vulkan.VK11.VK_MEMORY_PROPERTY_PROTECTED_BIT;

/**
 * What a buffer's memory is for, and so which memory type it gets. Among the types a buffer allows
 * ({@code VkMemoryRequirements.memoryTypeBits}), the first with the required and preferred flags wins, then
 * the first with the required flags. Lazily allocated and protected types are never chosen: plain buffers
 * cannot use them.
 */
enum MemoryPurpose {
    /** Array buffers: device-local where the device has it (every real device does). */
    DEVICE(0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT),
    /** Staging buffers for copies to and from the host: mappable and coherent (no flushes), cached if offered. */
    STAGING(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);

    private static final int EXCLUDED = VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT | VK_MEMORY_PROPERTY_PROTECTED_BIT;

    private final int required;
    private final int preferred;

    MemoryPurpose(int required, int preferred) {
        this.required = required;
        this.preferred = preferred;
    }

    /**
     * @param types       the device's memory types
     * @param allowedBits the buffer's {@code memoryTypeBits}
     * @return the memory type index to allocate from
     * @throws DeviceException if no allowed type has the required flags
     */
    int select(List<PhysicalDeviceInfo.MemoryType> types, int allowedBits) {
        int fallback = -1;
        for (int i = 0; i < types.size(); i++) {
            int flags = types.get(i).flags();
            if ((allowedBits & (1 << i)) == 0 || (flags & EXCLUDED) != 0 || (flags & required) != required) {
                continue;
            }
            if ((flags & preferred) == preferred) {
                return i;
            }
            if (fallback < 0) {
                fallback = i;
            }
        }
        if (fallback < 0) {
            throw new DeviceException("no Vulkan memory type for " + name().toLowerCase(Locale.ROOT)
                    + " buffers: required property flags 0x" + Integer.toHexString(required) + " among allowed types 0x"
                    + Integer.toHexString(allowedBits));
        }
        return fallback;
    }
}
