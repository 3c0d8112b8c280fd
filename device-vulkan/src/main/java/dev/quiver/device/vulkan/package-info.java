/**
 * The Vulkan backend ({@code ARROW_DEVICE_VULKAN}, code 7), on LWJGL 3.4 with its FFM memory backend.
 *
 * <h2>What a VULKAN ArrowDeviceArray holds</h2>
 * <ul>
 *   <li>{@code buffers[i]} is a {@code VkBuffer} handle (non-dispatchable, 64 bits) of the device's
 *       {@code VkDevice} ({@link dev.quiver.device.vulkan.VulkanDevice#vkDevice()}), not a host address.
 *       Offsets (the array's {@code offset}, copy offsets) travel beside the handle and are never added to
 *       it. Quiver binds each buffer at offset 0 to its own device-local {@code VkDeviceMemory} and keeps
 *       the {@code VkBuffer -> VkDeviceMemory} table itself
 *       ({@link dev.quiver.device.vulkan.VulkanDevice#deviceMemory}). Usage: transfer source, transfer
 *       destination, storage buffer.</li>
 *   <li>An allocation of 0 bytes is a real, distinct {@code VkBuffer} of 1 byte, since Vulkan forbids empty
 *       buffers; it reads as empty (copies that address any of its bytes are rejected).</li>
 *   <li>{@code sync_event} is a {@code VkEvent*}: a pointer to an 8-byte {@code VkEvent} handle, owned by
 *       the producer and destroyed by the array's release. Quiver sets its events with
 *       {@code vkCmdSetEvent(stage = ALL_COMMANDS)}; a producer handing Quiver an event should set it the
 *       same way (or from the host).</li>
 *   <li>{@code device_id} is the index of the physical device among the instance's
 *       ({@code vkEnumeratePhysicalDevices}).</li>
 * </ul>
 *
 * <h2>Memory types and copies</h2>
 * Array buffers come from a device-local memory type; copies to and from the host go through staging
 * buffers from a host-visible, host-coherent type (host-cached preferred), pooled per device. Device to
 * device copies are {@code vkCmdCopyBuffer}. Host to device copies return once the bytes are staged; device
 * to host copies return once the bytes are in host memory.
 *
 * <h2>Streams</h2>
 * A stream is an ordered submission sequence on the device's one queue (a queue family that can transfer,
 * a dedicated transfer family where there is one): each operation is one {@code vkQueueSubmit} that waits
 * on the binary semaphore the stream's previous submission signalled, signals the next one and a fence.
 * Synchronising a stream waits for the fences of everything submitted on it. Command buffers come from one
 * {@code VkCommandPool} per recording thread.
 *
 * <h2>Events and host waits</h2>
 * Recording an event submits {@code vkCmdSetEvent} on the stream; making another stream wait submits
 * {@code vkCmdWaitEvents} on it (same queue, submitted after the set, as Vulkan requires). Vulkan has no host
 * wait on a {@code VkEvent}: for its own events Quiver waits on the fence of the submission that sets the
 * event; for a foreign event it polls {@code vkGetEventStatus}, spinning briefly and then sleeping with
 * exponential backoff (1 µs to 1 ms). {@code vkGetEventStatus} answers "is it complete"; destroying waits for
 * the submissions that use the event, then calls {@code vkDestroyEvent}.
 *
 * <h2>Errors, probing, validation</h2>
 * Every failed call throws {@link dev.quiver.device.vulkan.VulkanException} naming the call and the
 * {@code VkResult}'s symbolic name. The probe is lazy and never throws; it says precisely why Vulkan is
 * unusable (no {@code libvulkan.so.1}, no driver or device, validation requested but its layer missing). With
 * {@code -Dquiver.vulkan.validation=true} the instance enables {@code VK_LAYER_KHRONOS_validation} and a
 * debug-utils messenger that records every warning and error in
 * {@link dev.quiver.device.vulkan.ValidationLog}.
 *
 * <h2>LWJGL configuration</h2>
 * Before LWJGL's first use (in the probe or in adoption, never at class initialisation) Quiver sets
 * {@code org.lwjgl.system.memoryBackend=ffm} on JDK 25+ (no {@code sun.misc.Unsafe} warnings) and
 * {@code org.lwjgl.vulkan.libname=libvulkan.so.1} on Linux, each only if the application has not set it.
 *
 * <h2>Sharing an application's Vulkan objects</h2>
 * {@link dev.quiver.device.vulkan.VulkanDevice#adopt} wraps an application's {@code VkInstance},
 * {@code VkPhysicalDevice}, {@code VkDevice} and {@code VkQueue}, given as raw handles, and
 * {@link dev.quiver.device.vulkan.VulkanProvider#serving} offers such devices to the API.
 */
package dev.quiver.device.vulkan;
