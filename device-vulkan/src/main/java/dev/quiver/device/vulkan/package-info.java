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
 *       {@code vkCmdSetEvent(stage = ALL_COMMANDS)}, or from the host ({@code vkSetEvent}) where the stream
 *       has nothing in flight, so a consumer that makes a queue wait for one gives
 *       {@code vkCmdWaitEvents} the source stages {@code ALL_COMMANDS | HOST}, as Quiver does; a producer
 *       handing Quiver an event should set it either way.</li>
 *   <li>{@code device_id} is the index of the physical device among the instance's
 *       ({@code vkEnumeratePhysicalDevices}).</li>
 * </ul>
 *
 * <h2>Memory types and copies</h2>
 * Array buffers come from a device-local memory type. Where that type is also host-visible (lavapipe, whose
 * memory is all host-visible, and integrated GPUs), the buffer's memory is mapped once for its life and
 * copies to and from the host are host memory copies on the mapped pointer ({@code memcpy} from 16 KiB),
 * with {@code vkFlushMappedMemoryRanges} after writes and {@code vkInvalidateMappedMemoryRanges} before reads
 * where the memory is not host-coherent: a write when no work is pending on the stream or the buffer (else it
 * is staged, to keep its place in the stream without blocking), a read after the work before it, where the
 * memory is host-cached. Every other copy to or from the host (device-local memory the host cannot map,
 * uncached memory read by the host, buffers of other code) goes through staging buffers from a host-visible,
 * host-coherent type (host-cached preferred), pooled per device and made only when such a copy needs one.
 * Every submission ends with a barrier that makes its writes visible to the host. Device to device copies
 * are {@code vkCmdCopyBuffer}, through a temporary buffer where the source and destination ranges of one
 * buffer overlap. Host to device copies return once the bytes are written or staged; device to host copies
 * return once the bytes are in host memory. Host memory of {@code allocateHost} (host-visible buffers mapped
 * for their life, the pool Quiver takes pinned host memory from) is copied by the device itself,
 * {@code vkCmdCopyBuffer} from or to its buffer with no staging: an upload from it is in stream order (the
 * memory must stay unchanged until the stream's work completes), a download into it is complete when it
 * returns. Copies from or to a {@code VkBuffer} the device did not allocate are allowed (it must belong to the
 * device's {@code VkDevice} and have the transfer usages); they are not range-checked.
 *
 * <h2>Inter-process memory</h2>
 * Where the device offers {@code VK_KHR_external_memory_fd} for Quiver's buffers (both export and import of
 * {@code VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT}, no dedicated allocation), the provider's logical device
 * enables it, every buffer's memory is allocated exportable and {@code ipcMechanism()} is {@code VULKAN_FD}
 * (else, and for adopted devices, {@code NONE}). {@code exportMemory} gives a new file descriptor of the
 * buffer's memory ({@code vkGetMemoryFdKHR}), owned by the caller, with the offset beside it and the
 * memory's {@code allocationSize}; {@code openMemory} imports a duplicate of the descriptor into a new
 * {@code VkDeviceMemory}, binds a new {@code VkBuffer} over all of it, and returns that buffer with the
 * exported bytes at the handle's offset in it; closing destroys both. A descriptor that is a memory file is
 * checked before and after the import: its header, where the driver maps such files by one, must map no more
 * than the file holds, and the range the driver mapped for the allocation must lie inside the file; otherwise
 * nothing stays imported and {@code openMemory} throws, naming both sizes, before anything reads the memory.
 * A device listed from the survey answers {@code ipcMechanism()} from the same question asked through the
 * survey's own downcalls, without opening the device.
 *
 * <h2>Streams</h2>
 * A stream is an ordered submission sequence on the device's one queue (a queue family that can transfer,
 * a dedicated transfer family where there is one): each operation is one {@code vkQueueSubmit} that waits
 * on the binary semaphore the stream's previous submission signalled, signals the next one and a fence.
 * Synchronising a stream waits for the fences of everything submitted on it. Command buffers come from one
 * {@code VkCommandPool} per recording thread.
 *
 * <h2>Events and host waits</h2>
 * Recording an event submits {@code vkCmdSetEvent} on the stream, unless the stream has nothing in flight:
 * then the work before the event is complete, and the event is set from the host at once ({@code vkSetEvent}:
 * no submission, and no fence for a host wait to wait on). A copy from the host that wrote mapped memory
 * directly leaves nothing in flight, so the copy's event costs no trip through the queue. Making another
 * stream wait submits {@code vkCmdWaitEvents} on it (same queue, submitted after the set, as Vulkan
 * requires). Vulkan has no host
 * wait on a {@code VkEvent}: for its own events Quiver waits on the fence of the submission that sets the
 * event; for a foreign event it polls {@code vkGetEventStatus}, spinning briefly and then sleeping with
 * exponential backoff (1 µs to 1 ms). {@code vkGetEventStatus} answers "is it complete"; destroying waits for
 * the submissions that use the event, then calls {@code vkDestroyEvent}. Re-recording an event waits for the
 * work that used it and resets it from the host first. An event Quiver made and never recorded counts as
 * complete.
 *
 * <h2>Native handles and adoption</h2>
 * {@code BackendDevice.nativeHandles()} gives, in this order, {@code "VkInstance"}, {@code "VkPhysicalDevice"},
 * {@code "VkDevice"}, {@code "VkQueue"} (the one queue every stream submits to) and {@code "queueFamilyIndex"}
 * (its family, as an address value). They are borrowed: valid as long as the device (the life of the process
 * for the provider's devices; until {@code close()} and then the application's for an adopted device), never
 * destroyed by the caller. An application builds its LWJGL objects on them ({@code new VkDevice(handle, ...)})
 * to make its own buffers and events on Quiver's device.
 * <ul>
 *   <li><em>Adopting a {@code VkQueue}.</em> Streams are Quiver's own submission sequences on the device's one
 *       queue, because {@code vkCmdWaitEvents} only waits for events set on the same queue. Adopting that
 *       queue (the {@code "VkQueue"} handle; for a device made by {@code VulkanDevice.adopt}, the
 *       application's queue) returns a new stream on it; any other queue is refused with an
 *       {@link java.lang.IllegalArgumentException} (adopt the whole device with the other queue instead).
 *       Forgetting the stream waits for its work and drops it; the queue is never destroyed, since its
 *       {@code VkDevice} owns it.</li>
 *   <li><em>Adopting a {@code VkEvent}.</em> An event of the device's {@code VkDevice} (not
 *       {@code VK_NULL_HANDLE}; {@code vkGetEventStatus} must answer) is taken by every event method. Until
 *       Quiver records it, it is the application's to set from the host: host waits poll it, and a stream
 *       waits for it with the host stage as source. Forgetting it waits for Quiver's work that uses it;
 *       {@code destroy} also destroys it. On a driver that runs a submission on the submitting thread (as
 *       lavapipe may), a stream waiting for an event the host has not set yet blocks the thread that submits
 *       work after the wait, until the event is set from another thread.</li>
 * </ul>
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
 *
 * <p><b>The library it lends.</b> {@code Device.vendorLibrary()} of every Vulkan device is the Vulkan loader
 * LWJGL loaded for this process ({@code libvulkan.so.1} on Linux, or what {@code org.lwjgl.vulkan.libname}
 * named), with the file it came from.
 */
package dev.quiver.device.vulkan;
