package dev.quiver.device.vulkan;

/**
 * A physical device as {@link VulkanSurvey} found it, before anything opens it. Immutable; thread-safe.
 *
 * @param info            what was read of it, as {@link PhysicalDeviceInfo#read} reads it
 * @param sharesOpaqueFd  whether it offers {@code VK_KHR_external_memory_fd} for Quiver's buffers, as
 *                        {@link ExternalMemoryFd#supported} decides; the device opened from it then
 *                        shares memory with {@link dev.quiver.spi.IpcMechanism#VULKAN_FD}
 */
record SurveyedDevice(PhysicalDeviceInfo info, boolean sharesOpaqueFd) {}
