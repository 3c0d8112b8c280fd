/** A command-line probe of the Vulkan backend, run in child JVMs by the backend's tests. */
package dev.quiver.vulkanprobe;
