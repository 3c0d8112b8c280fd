package dev.quiver.device.vulkan;

import dev.quiver.spi.ProbeResult;

/** The process's own Vulkan device on this machine: Mesa's lavapipe. Fails, never skips, if it is missing. */
final class Lavapipe {
    private Lavapipe() {}

    static VulkanDevice device() {
        ProbeResult result = new VulkanProvider().probe();
        if (!(result instanceof ProbeResult.Available available)) {
            throw new AssertionError("Vulkan must be usable here (install mesa-vulkan-drivers and vulkan-validationlayers): " + result);
        }
        return available.devices().stream().map(VulkanDevice.class::cast).filter(d -> d.name().startsWith("llvmpipe"))
                .findFirst().orElseThrow(() -> new AssertionError("no lavapipe (llvmpipe) device among " + available.devices()));
    }
}
