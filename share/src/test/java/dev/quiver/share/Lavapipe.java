package dev.quiver.share;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.Devices;
import dev.quiver.device.vulkan.ValidationLog;
import dev.quiver.device.vulkan.VulkanProvider;
import dev.quiver.plugin.Backends;

import java.util.List;

/**
 * Mesa's lavapipe, the Vulkan device of this machine and of CI ({@code mesa-vulkan-drivers}), through the Vulkan
 * backend under the Khronos validation layer (the surefire settings, which {@link ChildJvm} passes on): one set of
 * devices per process. Fails, never skips, where it is missing. Thread-safe.
 */
final class Lavapipe {
    private static Devices devices;

    private Lavapipe() {}

    /** {@return this process's Vulkan devices} */
    static synchronized Devices devices() {
        if (devices == null) {
            devices = Backends.devices(List.of(new VulkanProvider()), BackendSelection.all());
        }
        return devices;
    }

    /** {@return the lavapipe (llvmpipe) device} @throws AssertionError if Vulkan or lavapipe is missing */
    static Device device() {
        if (!ValidationLog.requested()) {
            throw new AssertionError("run with -D" + ValidationLog.PROPERTY + "=true (the module's surefire settings)");
        }
        return devices().all().stream().filter(d -> d.name().startsWith("llvmpipe")).findFirst()
                .orElseThrow(() -> new AssertionError("no lavapipe (llvmpipe) device among " + devices().all()
                        + " (install mesa-vulkan-drivers and vulkan-validationlayers)"));
    }
}
