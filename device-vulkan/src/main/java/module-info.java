/**
 * The Vulkan backend: {@code ARROW_DEVICE_VULKAN} buffers through LWJGL 3.4 ({@code org.lwjgl},
 * {@code org.lwjgl.vulkan}, and the native core {@code org.lwjgl.natives} for the running OS).
 *
 * <p>Grant native access to this module and to {@code org.lwjgl} (for example
 * {@code --enable-native-access=dev.quiver.device.vulkan,org.lwjgl}): this module views mapped staging memory
 * through {@code MemorySegment.reinterpret}, and LWJGL loads its native library and the Vulkan loader.
 */
module dev.quiver.device.vulkan {
    requires transitive dev.quiver.spi;
    requires org.lwjgl;
    requires org.lwjgl.vulkan;
    requires org.lwjgl.natives;
    exports dev.quiver.device.vulkan;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.vulkan.VulkanProvider;
}
