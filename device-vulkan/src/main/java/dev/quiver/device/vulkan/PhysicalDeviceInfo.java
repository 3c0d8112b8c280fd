package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkMemoryHeap;
import org.lwjgl.vulkan.VkPhysicalDeviceIDProperties;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceMaintenance3Properties;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkQueueFamilyProperties;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.lwjgl.vulkan.VK10.VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_CPU;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_COMPUTE_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_GRAPHICS_BIT;
import static org.lwjgl.vulkan.VK10.VK_QUEUE_TRANSFER_BIT;
import static org.lwjgl.vulkan.VK10.vkGetPhysicalDeviceMemoryProperties;
import static org.lwjgl.vulkan.VK10.vkGetPhysicalDeviceQueueFamilyProperties;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

/**
 * What Quiver reads once from a {@code VkPhysicalDevice}: name, versions, limits, memory heaps and types, and
 * the queue family it submits copies to. Immutable; thread-safe.
 *
 * @param name                the device name, for example {@code llvmpipe (LLVM 15.0.6, 256 bits)}
 * @param apiVersion          the Vulkan version the device supports, packed as {@code VK_MAKE_API_VERSION}
 * @param deviceType          {@code VkPhysicalDeviceType}
 * @param maxAllocation       {@code maxMemoryAllocationSize} (Vulkan 1.1 maintenance3)
 * @param maxAllocationCount  {@code maxMemoryAllocationCount}
 * @param nonCoherentAtomSize {@code nonCoherentAtomSize}: the granule of flushes and invalidations of mapped
 *                            memory that is not host-coherent
 * @param heaps               the memory heaps, in index order
 * @param memoryTypes         {@code propertyFlags} and heap index of each memory type, in index order
 * @param queueFamily         the queue family chosen for copies
 * @param queueFamilyFlags    its {@code VkQueueFlags}
 * @param deviceUuid          {@code VkPhysicalDeviceIDProperties.deviceUUID} (Vulkan 1.1), 16 bytes that name the
 *                            device the same way in every process and instance, which the sharing handshake sends: as
 *                            32 hexadecimal digits in the groups 8-4-4-4-12
 */
record PhysicalDeviceInfo(String name, int apiVersion, int deviceType, long maxAllocation,
                          long maxAllocationCount, long nonCoherentAtomSize, List<Heap> heaps,
                          List<MemoryType> memoryTypes, int queueFamily, int queueFamilyFlags, String deviceUuid) {
    /** Bytes of a {@code VK_UUID_SIZE} UUID. */
    static final int UUID_SIZE = 16;

    /** Copies the lists. */
    PhysicalDeviceInfo {
        heaps = List.copyOf(heaps);
        memoryTypes = List.copyOf(memoryTypes);
    }

    /**
     * @param size  bytes
     * @param flags {@code VkMemoryHeapFlags}
     */
    record Heap(long size, int flags) {
        boolean deviceLocal() {
            return (flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
        }
    }

    /**
     * @param flags {@code VkMemoryPropertyFlags}
     * @param heap  heap index
     */
    record MemoryType(int flags, int heap) {}

    /**
     * Reads a physical device of an instance created with API version 1.1 or later.
     *
     * @param device the physical device
     * @return its description; the queue family is {@code -1} if no family can transfer
     */
    static PhysicalDeviceInfo read(VkPhysicalDevice device) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkPhysicalDeviceMaintenance3Properties maintenance3 = VkPhysicalDeviceMaintenance3Properties.calloc(stack).sType$Default();
            VkPhysicalDeviceIDProperties ids = VkPhysicalDeviceIDProperties.calloc(stack).sType$Default();
            // LWJGL's pNext(struct) puts the struct at the head of the chain: properties2 -> ids -> maintenance3
            VkPhysicalDeviceProperties2 properties2 = VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(maintenance3).pNext(ids);
            vkGetPhysicalDeviceProperties2(device, properties2);
            VkPhysicalDeviceProperties properties = properties2.properties();

            VkPhysicalDeviceMemoryProperties memory = VkPhysicalDeviceMemoryProperties.calloc(stack);
            vkGetPhysicalDeviceMemoryProperties(device, memory);
            List<Heap> heaps = new ArrayList<>();
            for (int i = 0; i < memory.memoryHeapCount(); i++) {
                VkMemoryHeap heap = memory.memoryHeaps(i);
                heaps.add(new Heap(heap.size(), heap.flags()));
            }
            List<MemoryType> types = new ArrayList<>();
            for (int i = 0; i < memory.memoryTypeCount(); i++) {
                types.add(new MemoryType(memory.memoryTypes(i).propertyFlags(), memory.memoryTypes(i).heapIndex()));
            }

            int[][] families = queueFamilies(device);
            int[] flags = families[0];
            int[] queues = families[1];
            int family = transferQueueFamily(flags, queues).orElse(-1);
            return new PhysicalDeviceInfo(properties.deviceNameString(), properties.apiVersion(),
                    properties.deviceType(), maintenance3.maxMemoryAllocationSize(), Integer.toUnsignedLong(properties.limits().maxMemoryAllocationCount()),
                    properties.limits().nonCoherentAtomSize(), heaps, types, family, family < 0 ? 0 : flags[family], uuid(ids));
        }
    }

    private static String uuid(VkPhysicalDeviceIDProperties ids) {
        byte[] uuid = new byte[UUID_SIZE];
        ids.deviceUUID().get(uuid);
        return uuidText(uuid);
    }

    /** @return a copy that names another queue family for copies */
    PhysicalDeviceInfo withQueueFamily(int family, int flags) {
        return new PhysicalDeviceInfo(name, apiVersion, deviceType, maxAllocation, maxAllocationCount, nonCoherentAtomSize,
                heaps, memoryTypes, family, flags, deviceUuid);
    }

    /** @return {@code {flags, queueCounts}} of each queue family of {@code device} */
    static int[][] queueFamilies(VkPhysicalDevice device) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer count = stack.mallocInt(1);
            vkGetPhysicalDeviceQueueFamilyProperties(device, count, null);
            VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.calloc(count.get(0), stack);
            vkGetPhysicalDeviceQueueFamilyProperties(device, count, families);
            int[][] result = new int[2][families.capacity()];
            for (int i = 0; i < families.capacity(); i++) {
                result[0][i] = families.get(i).queueFlags();
                result[1][i] = families.get(i).queueCount();
            }
            return result;
        }
    }

    /** @return whether a queue family with these flags can run transfer commands */
    static boolean canTransfer(int flags) {
        return (flags & (VK_QUEUE_TRANSFER_BIT | VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) != 0;
    }

    /**
     * Chooses the queue family for copies: a dedicated transfer family (transfer without graphics or
     * compute) if there is one, since copy engines run beside compute work; otherwise the first family that
     * can transfer. Graphics and compute families can always transfer, whether or not they say so.
     *
     * @param flags  {@code VkQueueFlags} of each family
     * @param queues queue count of each family
     * @return the family index, or empty if none can transfer
     */
    static OptionalInt transferQueueFamily(int[] flags, int[] queues) {
        int any = -1;
        for (int i = 0; i < flags.length; i++) {
            if (queues[i] == 0) {
                continue;
            }
            boolean general = (flags[i] & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) != 0;
            if (!general && (flags[i] & VK_QUEUE_TRANSFER_BIT) != 0) {
                return OptionalInt.of(i);
            }
            if (canTransfer(flags[i]) && any < 0) {
                any = i;
            }
        }
        return any < 0 ? OptionalInt.empty() : OptionalInt.of(any);
    }

    /** @return the bytes of all device-local heaps */
    long deviceLocalBytes() {
        return heaps.stream().filter(Heap::deviceLocal).mapToLong(Heap::size).sum();
    }

    /** @return limits and facts for {@code quiver devices}, in display order */
    Map<String, String> describe(boolean validation, boolean adopted) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("api", version(apiVersion));
        p.put("type", typeName(deviceType));
        p.put("maxAllocation", bytes(maxAllocation));
        p.put("maxAllocationCount", Long.toString(maxAllocationCount));
        List<String> heapText = new ArrayList<>();
        for (int i = 0; i < heaps.size(); i++) {
            heapText.add("#" + i + " " + bytes(heaps.get(i).size()) + (heaps.get(i).deviceLocal() ? " device-local" : " host"));
        }
        p.put("heaps", String.join(" | ", heapText));
        p.put("queueFamily", queueFamily + " (" + queueFlagNames(queueFamilyFlags) + ")");
        p.put("uuid", deviceUuid);
        if (adopted) {
            p.put("adopted", "yes (validation as the application set it)");
        } else {
            p.put("validation", validation ? "on" : "off");
        }
        return p;
    }

    /** @return a UUID as 32 hexadecimal digits in the groups 8-4-4-4-12 */
    static String uuidText(byte[] uuid) {
        String hex = java.util.HexFormat.of().formatHex(uuid);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20) + "-" + hex.substring(20);
    }

    /** @return {@code major.minor.patch} of a {@code VK_MAKE_API_VERSION}, read without LWJGL */
    static String version(int packed) {
        return (packed >>> 22 & 0x7F) + "." + (packed >>> 12 & 0x3FF) + "." + (packed & 0xFFF);
    }

    static String bytes(long bytes) {
        double gib = bytes / (1024.0 * 1024 * 1024);
        if (gib >= 1) {
            return String.format("%.1f GiB", gib);
        }
        return String.format("%.1f MiB", bytes / (1024.0 * 1024));
    }

    private static String typeName(int type) {
        return switch (type) {
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> "integrated GPU";
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> "discrete GPU";
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> "virtual GPU";
            case VK_PHYSICAL_DEVICE_TYPE_CPU -> "CPU";
            default -> "other";
        };
    }

    private static String queueFlagNames(int flags) {
        List<String> names = new ArrayList<>();
        if ((flags & VK_QUEUE_GRAPHICS_BIT) != 0) {
            names.add("graphics");
        }
        if ((flags & VK_QUEUE_COMPUTE_BIT) != 0) {
            names.add("compute");
        }
        if ((flags & VK_QUEUE_TRANSFER_BIT) != 0) {
            names.add("transfer");
        }
        return String.join(",", names);
    }
}
