package dev.quiver.benchmarks.handoff;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds Mesa's lavapipe (the Vulkan device named {@code llvmpipe...}, package {@code mesa-vulkan-drivers})
 * among a process's Vulkan devices, probing only the Vulkan backend. Whether the Khronos validation layer runs
 * is the Vulkan backend's system property {@value #VALIDATION_PROPERTY}. Stateless.
 */
final class LavapipeDevice {
    /** The Vulkan backend's system property that turns the Khronos validation layer on. */
    static final String VALIDATION_PROPERTY = "quiver.vulkan.validation";
    private static final int MOST_DEVICES = 64;

    private LavapipeDevice() {}

    /**
     * @param devices the process's devices
     * @return lavapipe
     * @throws IllegalStateException naming the Vulkan devices found if none is lavapipe
     */
    static Device of(Devices devices) {
        List<String> others = new ArrayList<>();
        for (long id = 0; id < MOST_DEVICES; id++) {
            Optional<Device> found = devices.find(DeviceType.VULKAN, id);
            if (found.isEmpty()) {
                break;
            }
            if (found.get().name().startsWith("llvmpipe")) {
                return found.get();
            }
            others.add(found.get().name());
        }
        throw new IllegalStateException("no lavapipe (llvmpipe) among the Vulkan devices " + others
                + " (install mesa-vulkan-drivers; `quiver devices` says why a backend is missing)");
    }

    /** {@return whether this process runs Vulkan under the Khronos validation layer} */
    static boolean validation() {
        return Boolean.getBoolean(VALIDATION_PROPERTY);
    }
}
