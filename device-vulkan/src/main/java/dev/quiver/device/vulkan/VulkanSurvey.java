package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.VendorLibrary;
import dev.quiver.spi.DriverStartLock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Finds the Vulkan devices the way the provider's probe does, through a few downcalls bound by
 * {@link VulkanCalls} instead of LWJGL, whose start-up costs far more than the driver's: loads the loader LWJGL
 * is configured to load,
 * creates an instance like {@link VulkanInstance}'s (API 1.1, portability enumeration where the loader has
 * it, no validation), reads each physical device as {@link PhysicalDeviceInfo#read} does and asks it what
 * {@link ExternalMemoryFd#supported} asks ({@link SurveyedExternalMemory}). The instance is
 * kept for the life of the process, so the driver stays loaded for the probe that opens the devices later.
 *
 * <p>It answers only when it finds every device usable; in every other case (loader or driver missing,
 * versions too old, a device without a transfer queue) it answers nothing and the provider's full probe
 * decides, with its reasons. Thread-safe; runs once per process. The constants, sizes and offsets it
 * spells out are compared with {@code vulkan_core.h} by a test.
 */
final class VulkanSurvey {
    /** {@code VK_API_VERSION_1_1}, spelled out so that reading it loads no LWJGL class. */
    static final int API_VERSION_1_1 = (1 << 22) | (1 << 12);
    static final String PORTABILITY_ENUMERATION = "VK_KHR_portability_enumeration";
    static final int ENUMERATE_PORTABILITY_BIT = 0x1;
    static final int STRUCTURE_TYPE_APPLICATION_INFO = 0;
    static final int STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1;
    static final int STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001;
    static final int STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES = 1000168000;
    static final int STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004;
    /** {@code VkPhysicalDeviceIDProperties}: sType, pNext, {@code deviceUUID[16]} at 16, driverUUID, deviceLUID, node mask, LUID valid. */
    static final long ID_PROPERTIES_SIZE = 64;
    static final long DEVICE_UUID_OFFSET = 16;
    /** {@code VkExtensionProperties}: {@code char extensionName[256]; uint32_t specVersion}. */
    static final long EXTENSION_PROPERTIES_SIZE = 260;
    /** {@code VkPhysicalDeviceProperties2}: sType, pNext, then {@code VkPhysicalDeviceProperties} (824 bytes). */
    static final long PROPERTIES_2_SIZE = 16 + 824;
    static final long PROPERTIES_OFFSET = 16;
    /** In {@code VkPhysicalDeviceProperties}: {@code limits} at 296, its {@code maxMemoryAllocationCount} at 36. */
    static final long MAX_ALLOCATION_COUNT_OFFSET = PROPERTIES_OFFSET + 296 + 36;
    /** VkPhysicalDeviceLimits.nonCoherentAtomSize: limits at 296 of VkPhysicalDeviceProperties, the member at 496. */
    static final long NON_COHERENT_ATOM_SIZE_OFFSET = PROPERTIES_OFFSET + 296 + 496;
    /** {@code VkPhysicalDeviceMemoryProperties}: 32 types of 8 bytes from 4, count at 260, 16 heaps of 16 bytes from 264. */
    static final long MEMORY_PROPERTIES_SIZE = 520;
    /** {@code VkQueueFamilyProperties}: flags, count, timestamp bits, a 3 x uint32 extent. */
    static final long QUEUE_FAMILY_SIZE = 24;

    private static Optional<List<SurveyedDevice>> devices;

    private VulkanSurvey() {}

    /**
     * @return every physical device, each supporting Vulkan 1.1 and having a queue family that can transfer,
     *         in the instance's order, with whether it shares memory as opaque file descriptors; empty if the
     *         survey cannot tell (the full probe then does)
     */
    static synchronized Optional<List<SurveyedDevice>> devices() {
        if (devices == null) {
            try {
                devices = run();
            } catch (RuntimeException e) {
                devices = Optional.empty();
            }
        }
        return devices;
    }

    private static Optional<List<SurveyedDevice>> run() {
        LwjglSetup.configure();
        VulkanCalls vk;
        try {
            vk = VulkanCalls.load(LwjglSetup.loaderName());
        } catch (VendorLibrary.NotFoundException notLoaded) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment version = arena.allocate(JAVA_INT);
            if (vk.global().result(VkGlobalFunction.vkEnumerateInstanceVersion, h -> (int) h.invokeExact(version)) != 0
                    || Integer.compareUnsigned(version.get(JAVA_INT, 0), API_VERSION_1_1) < 0) {
                return Optional.empty();
            }
            Optional<Instance> instance = DriverStartLock.holding(() -> start(vk, arena));
            if (instance.isEmpty()) {
                return Optional.empty();
            }
            List<SurveyedDevice> found = new ArrayList<>();
            for (MemorySegment physical : instance.get().physicalDevices()) {
                PhysicalDeviceInfo info = read(instance.get().calls(), physical, arena);
                if (Integer.compareUnsigned(info.apiVersion(), API_VERSION_1_1) < 0 || info.queueFamily() < 0) {
                    return Optional.empty();
                }
                found.add(new SurveyedDevice(info, SurveyedExternalMemory.sharesOpaqueFd(instance.get().calls(), physical, arena)));
            }
            return found.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(found));
        }
    }

    /**
     * The instance, its functions and its physical devices.
     *
     * @param calls           the functions of the {@code VkInstance}
     * @param physicalDevices its {@code VkPhysicalDevice}s, in order
     */
    private record Instance(Bindings<VkInstanceFunction> calls, List<MemorySegment> physicalDevices) {}

    /**
     * Creates the instance and enumerates its physical devices: the calls in which the driver starts (lavapipe
     * registers its LLVM targets when it enumerates), made under the {@link DriverStartLock}.
     *
     * @return the instance, or empty if it could not be made or lacks a function the survey calls
     */
    private static Optional<Instance> start(VulkanCalls vk, Arena arena) {
        MemorySegment instance = createInstance(vk.global(), arena);
        if (instance.equals(MemorySegment.NULL)) {
            return Optional.empty();
        }
        Bindings<VkInstanceFunction> calls;
        try {
            calls = vk.of(instance);
        } catch (VendorLibrary.NotFoundException incomplete) {
            return Optional.empty();
        }
        return Optional.of(new Instance(calls, physicalDevices(calls, instance, arena)));
    }

    /** @return the instance, or NULL if it could not be made */
    private static MemorySegment createInstance(Bindings<VkGlobalFunction> vk, Arena arena) {
        List<String> extensions = new ArrayList<>();
        int flags = 0;
        if (instanceExtensions(vk, arena).contains(PORTABILITY_ENUMERATION)) {
            extensions.add(PORTABILITY_ENUMERATION);
            flags |= ENUMERATE_PORTABILITY_BIT;
        }
        MemorySegment application = arena.allocate(48, 8);
        application.set(JAVA_INT, 0, STRUCTURE_TYPE_APPLICATION_INFO);
        application.set(ADDRESS, 16, arena.allocateFrom("Quiver"));
        application.set(ADDRESS, 32, arena.allocateFrom("Quiver"));
        application.set(JAVA_INT, 44, API_VERSION_1_1);
        MemorySegment names = arena.allocate(ADDRESS, Math.max(1, extensions.size()));
        for (int i = 0; i < extensions.size(); i++) {
            names.setAtIndex(ADDRESS, i, arena.allocateFrom(extensions.get(i)));
        }
        MemorySegment create = arena.allocate(64, 8);
        create.set(JAVA_INT, 0, STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
        create.set(JAVA_INT, 16, flags);
        create.set(ADDRESS, 24, application);
        create.set(JAVA_INT, 48, extensions.size());
        create.set(ADDRESS, 56, extensions.isEmpty() ? MemorySegment.NULL : names);
        MemorySegment handle = arena.allocate(ADDRESS);
        int result = vk.result(VkGlobalFunction.vkCreateInstance, h -> (int) h.invokeExact(create, MemorySegment.NULL, handle));
        return result == 0 ? handle.get(ADDRESS, 0) : MemorySegment.NULL;
    }

    private static List<String> instanceExtensions(Bindings<VkGlobalFunction> vk, Arena arena) {
        return extensionNames((count, properties) -> vk.result(VkGlobalFunction.vkEnumerateInstanceExtensionProperties,
                h -> (int) h.invokeExact(MemorySegment.NULL, count, properties)), arena);
    }

    /** One of the two-call functions that list extensions: {@code VkResult (uint32_t *count, VkExtensionProperties *properties)}. */
    @FunctionalInterface
    interface ExtensionEnumeration {
        /**
         * Calls the function.
         *
         * @param count      the count, read and written
         * @param properties NULL to ask for the count, else room for that many {@code VkExtensionProperties}
         * @return the {@code VkResult}
         */
        int call(MemorySegment count, MemorySegment properties);
    }

    /**
     * Asks for the count, then for the properties.
     *
     * @param enumeration the function, bound to its other arguments
     * @param arena       where the properties are read
     * @return the extension names, or none if either call fails
     */
    static List<String> extensionNames(ExtensionEnumeration enumeration, Arena arena) {
        MemorySegment count = arena.allocate(JAVA_INT);
        if (enumeration.call(count, MemorySegment.NULL) != 0) {
            return List.of();
        }
        MemorySegment properties = arena.allocate(EXTENSION_PROPERTIES_SIZE * Math.max(1, count.get(JAVA_INT, 0)), 4);
        if (enumeration.call(count, properties) != 0) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
            names.add(properties.getString(i * EXTENSION_PROPERTIES_SIZE));
        }
        return names;
    }

    private static List<MemorySegment> physicalDevices(Bindings<VkInstanceFunction> vk, MemorySegment instance, Arena arena) {
        VkInstanceFunction function = VkInstanceFunction.vkEnumeratePhysicalDevices;
        MemorySegment count = arena.allocate(JAVA_INT);
        if (vk.result(function, h -> (int) h.invokeExact(instance, count, MemorySegment.NULL)) != 0 || count.get(JAVA_INT, 0) == 0) {
            return List.of();
        }
        MemorySegment handles = arena.allocate(ADDRESS, count.get(JAVA_INT, 0));
        if (vk.result(function, h -> (int) h.invokeExact(instance, count, handles)) != 0) {
            return List.of();
        }
        List<MemorySegment> devices = new ArrayList<>();
        for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
            devices.add(handles.getAtIndex(ADDRESS, i));
        }
        return devices;
    }

    private static PhysicalDeviceInfo read(Bindings<VkInstanceFunction> vk, MemorySegment physical, Arena arena) {
        MemorySegment maintenance3 = arena.allocate(32, 8);
        maintenance3.set(JAVA_INT, 0, STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
        MemorySegment ids = arena.allocate(ID_PROPERTIES_SIZE, 8);
        ids.set(JAVA_INT, 0, STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
        ids.set(ADDRESS, 8, maintenance3);
        MemorySegment properties2 = arena.allocate(PROPERTIES_2_SIZE, 8);
        properties2.set(JAVA_INT, 0, STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
        properties2.set(ADDRESS, 8, ids);
        vk.run(VkInstanceFunction.vkGetPhysicalDeviceProperties2, h -> {
            h.invokeExact(physical, properties2);
        });

        MemorySegment memory = arena.allocate(MEMORY_PROPERTIES_SIZE, 8);
        vk.run(VkInstanceFunction.vkGetPhysicalDeviceMemoryProperties, h -> {
            h.invokeExact(physical, memory);
        });
        List<PhysicalDeviceInfo.MemoryType> types = new ArrayList<>();
        for (int i = 0; i < memory.get(JAVA_INT, 0); i++) {
            types.add(new PhysicalDeviceInfo.MemoryType(memory.get(JAVA_INT, 4 + 8L * i), memory.get(JAVA_INT, 8 + 8L * i)));
        }
        List<PhysicalDeviceInfo.Heap> heaps = new ArrayList<>();
        for (int i = 0; i < memory.get(JAVA_INT, 260); i++) {
            heaps.add(new PhysicalDeviceInfo.Heap(memory.get(JAVA_LONG, 264 + 16L * i), memory.get(JAVA_INT, 272 + 16L * i)));
        }

        VkInstanceFunction familyFunction = VkInstanceFunction.vkGetPhysicalDeviceQueueFamilyProperties;
        MemorySegment count = arena.allocate(JAVA_INT);
        vk.run(familyFunction, h -> {
            h.invokeExact(physical, count, MemorySegment.NULL);
        });
        int families = count.get(JAVA_INT, 0);
        MemorySegment familyProperties = arena.allocate(QUEUE_FAMILY_SIZE * Math.max(1, families), 4);
        vk.run(familyFunction, h -> {
            h.invokeExact(physical, count, familyProperties);
        });
        int[] flags = new int[count.get(JAVA_INT, 0)];
        int[] queues = new int[flags.length];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = familyProperties.get(JAVA_INT, QUEUE_FAMILY_SIZE * i);
            queues[i] = familyProperties.get(JAVA_INT, QUEUE_FAMILY_SIZE * i + 4);
        }
        int family = PhysicalDeviceInfo.transferQueueFamily(flags, queues).orElse(-1);
        return new PhysicalDeviceInfo(properties2.getString(PROPERTIES_OFFSET + 20), properties2.get(JAVA_INT, PROPERTIES_OFFSET),
                properties2.get(JAVA_INT, PROPERTIES_OFFSET + 16), maintenance3.get(JAVA_LONG, 24),
                Integer.toUnsignedLong(properties2.get(JAVA_INT, MAX_ALLOCATION_COUNT_OFFSET)),
                properties2.get(JAVA_LONG, NON_COHERENT_ATOM_SIZE_OFFSET), heaps, types, family,
                family < 0 ? 0 : flags[family], PhysicalDeviceInfo.uuidText(ids.asSlice(DEVICE_UUID_OFFSET, PhysicalDeviceInfo.UUID_SIZE).toArray(JAVA_BYTE)));
    }
}
