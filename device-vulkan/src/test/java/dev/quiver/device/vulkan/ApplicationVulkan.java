package dev.quiver.device.vulkan;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkBufferCreateInfo;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkDeviceQueueCreateInfo;
import org.lwjgl.vulkan.VkEventCreateInfo;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkMemoryAllocateInfo;
import org.lwjgl.vulkan.VkMemoryRequirements;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkQueue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.lwjgl.vulkan.EXTDebugUtils.vkCreateDebugUtilsMessengerEXT;
import static org.lwjgl.vulkan.EXTDebugUtils.vkDestroyDebugUtilsMessengerEXT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
import static org.lwjgl.vulkan.VK10.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
import static org.lwjgl.vulkan.VK10.VK_SHARING_MODE_EXCLUSIVE;
import static org.lwjgl.vulkan.VK10.vkAllocateMemory;
import static org.lwjgl.vulkan.VK10.vkBindBufferMemory;
import static org.lwjgl.vulkan.VK10.vkCreateBuffer;
import static org.lwjgl.vulkan.VK10.vkCreateDevice;
import static org.lwjgl.vulkan.VK10.vkCreateEvent;
import static org.lwjgl.vulkan.VK10.vkCreateInstance;
import static org.lwjgl.vulkan.VK10.vkDestroyBuffer;
import static org.lwjgl.vulkan.VK10.vkDestroyDevice;
import static org.lwjgl.vulkan.VK10.vkDestroyEvent;
import static org.lwjgl.vulkan.VK10.vkDestroyInstance;
import static org.lwjgl.vulkan.VK10.vkEnumeratePhysicalDevices;
import static org.lwjgl.vulkan.VK10.vkFreeMemory;
import static org.lwjgl.vulkan.VK10.vkGetBufferMemoryRequirements;
import static org.lwjgl.vulkan.VK10.vkGetDeviceQueue;
import static org.lwjgl.vulkan.VK10.vkMapMemory;
import static org.lwjgl.vulkan.VK10.vkUnmapMemory;

/**
 * What an application using LWJGL has made before it meets Quiver: its own Vulkan 1.1 instance (validation
 * layer and synchronisation validation on, with its own debug messenger collecting into {@link #messages}), the first lavapipe physical
 * device, a logical device with one queue of the first family that can transfer, and whatever buffers and
 * events the test asks it for. Real Vulkan objects on the real driver; the test closes it.
 */
final class ApplicationVulkan implements AutoCloseable {
    static final int API_VERSION = VulkanInstance.API_VERSION;

    final List<String> messages = new CopyOnWriteArrayList<>();
    final VkInstance instance;
    final VkPhysicalDevice physical;
    final VkDevice device;
    final VkQueue queue;
    final int queueFamily;
    private final VkDebugUtilsMessengerCallbackEXT callback;
    private final long messenger;
    private final List<long[]> buffers = new ArrayList<>();
    private final List<Long> events = new ArrayList<>();

    ApplicationVulkan() {
        if (VulkanLoader.load().isPresent()) {
            throw new AssertionError("the Vulkan loader must load here: " + VulkanLoader.load().get());
        }
        callback = DebugMessenger.callback(messages::add);
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default()
                    .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default().apiVersion(API_VERSION));
            List<String> extensions = new ArrayList<>();
            VulkanInstance.enableValidation(stack, info, extensions, callback);
            info.ppEnabledExtensionNames(VulkanInstance.names(stack, extensions));
            PointerBuffer handle = stack.mallocPointer(1);
            VulkanException.check(vkCreateInstance(info, null, handle), "vkCreateInstance");
            instance = new VkInstance(handle.get(0), info);
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateDebugUtilsMessengerEXT(instance, DebugMessenger.createInfo(stack, callback), null, out),
                    "vkCreateDebugUtilsMessengerEXT");
            messenger = out.get(0);

            IntBuffer count = stack.ints(1);
            PointerBuffer first = stack.mallocPointer(1);
            int result = vkEnumeratePhysicalDevices(instance, count, first);
            if (result < 0 || count.get(0) == 0) {
                throw new AssertionError("the application finds no Vulkan physical device (result " + result + ")");
            }
            physical = new VkPhysicalDevice(first.get(0), instance);
            int[][] families = PhysicalDeviceInfo.queueFamilies(physical);
            int family = 0;
            while (!PhysicalDeviceInfo.canTransfer(families[0][family])) {
                family++;
            }
            queueFamily = family;
            VkDeviceQueueCreateInfo.Buffer queues = VkDeviceQueueCreateInfo.calloc(1, stack);
            queues.get(0).sType$Default().queueFamilyIndex(family).pQueuePriorities(stack.floats(1.0f));
            VkDeviceCreateInfo deviceInfo = VkDeviceCreateInfo.calloc(stack).sType$Default().pQueueCreateInfos(queues);
            VulkanException.check(vkCreateDevice(physical, deviceInfo, null, handle), "vkCreateDevice");
            device = new VkDevice(handle.get(0), physical, deviceInfo, API_VERSION);
            vkGetDeviceQueue(device, family, 0, handle);
            queue = new VkQueue(handle.get(0), device);
        }
    }

    /** @return a Quiver device adopting this application's handles */
    VulkanDevice adopt() {
        return VulkanDevice.adopt(instance.address(), physical.address(), device.address(), queue.address(), queueFamily, API_VERSION);
    }

    /**
     * @param contents the bytes to put in it
     * @return a {@code VkBuffer} the application owns, in host-visible memory it filled by mapping
     */
    long bufferHolding(byte[] contents) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateBuffer(device, VkBufferCreateInfo.calloc(stack).sType$Default().size(contents.length)
                    .usage(VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT).sharingMode(VK_SHARING_MODE_EXCLUSIVE),
                    null, out), "vkCreateBuffer");
            long buffer = out.get(0);
            VkMemoryRequirements requirements = VkMemoryRequirements.calloc(stack);
            vkGetBufferMemoryRequirements(device, buffer, requirements);
            int type = MemoryPurpose.STAGING.select(PhysicalDeviceInfo.read(physical).memoryTypes(), requirements.memoryTypeBits());
            VulkanException.check(vkAllocateMemory(device, VkMemoryAllocateInfo.calloc(stack).sType$Default()
                    .allocationSize(requirements.size()).memoryTypeIndex(type), null, out), "vkAllocateMemory");
            long memory = out.get(0);
            buffers.add(new long[] {buffer, memory});
            VulkanException.check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
            PointerBuffer mapped = stack.mallocPointer(1);
            VulkanException.check(vkMapMemory(device, memory, 0, contents.length, 0, mapped), "vkMapMemory");
            MemorySegment.copy(contents, 0, MemorySegment.ofAddress(mapped.get(0)).reinterpret(contents.length),
                    ValueLayout.JAVA_BYTE, 0, contents.length);
            vkUnmapMemory(device, memory);
            return buffer;
        }
    }

    /** @return a {@code VkEvent} the application owns, unsignalled */
    long event() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateEvent(device, VkEventCreateInfo.calloc(stack).sType$Default(), null, out), "vkCreateEvent");
            events.add(out.get(0));
            return out.get(0);
        }
    }

    /** Destroys the application's objects, device and instance, as an application would at exit. */
    @Override
    public void close() {
        events.forEach(e -> vkDestroyEvent(device, e, null));
        buffers.forEach(b -> {
            vkDestroyBuffer(device, b[0], null);
            vkFreeMemory(device, b[1], null);
        });
        vkDestroyDevice(device, null);
        vkDestroyDebugUtilsMessengerEXT(instance, messenger, null);
        vkDestroyInstance(instance, null);
        callback.free();
    }
}
