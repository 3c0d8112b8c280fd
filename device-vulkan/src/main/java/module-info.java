/**
 * The Vulkan backend: {@code ARROW_DEVICE_VULKAN} buffers through LWJGL 3.4 ({@code org.lwjgl},
 * {@code org.lwjgl.vulkan}, and the native core {@code org.lwjgl.natives} for the running OS).
 *
 * <p>Grant native access to this module, to {@code dev.quiver.device.ffm} and to {@code org.lwjgl} (for example
 * {@code --enable-native-access=dev.quiver.device.vulkan,dev.quiver.device.ffm,org.lwjgl}): this module views
 * mapped memory through {@code MemorySegment.reinterpret}; {@code dev.quiver.device.ffm} opens the Vulkan loader
 * and makes this module's native calls (the device survey's, bound through {@code vkGetInstanceProcAddr}) and
 * copies to and from mapped memory with the C library's {@code memcpy}; LWJGL loads its native library and
 * the Vulkan loader for its own bindings.
 */
module dev.quiver.device.vulkan {
    requires transitive dev.quiver.spi;
    requires dev.quiver.device.ffm;
    requires org.lwjgl;
    requires org.lwjgl.vulkan;
    requires org.lwjgl.natives;
    exports dev.quiver.device.vulkan;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.vulkan.VulkanProvider;
}
