package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.VendorLibrary;
import dev.quiver.spi.HardwareKind;
import dev.quiver.spi.LoadedLibrary;
import org.lwjgl.system.FunctionProvider;
import org.lwjgl.system.SharedLibrary;
import org.lwjgl.vulkan.VK;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_CPU;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;

/**
 * The Vulkan loader LWJGL loaded, as devices report it, and what a physical device type says a device is.
 * Stateless; thread-safe.
 */
final class VulkanLibrary {
    private VulkanLibrary() {}

    /** The loader, looked up once: LWJGL loads it once per process. */
    private static final class Loaded {
        static final Optional<LoadedLibrary> LIBRARY = find();
    }

    /** @return the loader LWJGL loaded for this process, if it has loaded one (the same lookup every call) */
    static Optional<LoadedLibrary> loaded() {
        return Loaded.LIBRARY;
    }

    private static Optional<LoadedLibrary> find() {
        FunctionProvider provider = VK.getFunctionProvider();
        if (!(provider instanceof SharedLibrary library)) {
            return Optional.empty();
        }
        Optional<Path> path = Optional.ofNullable(library.getPath()).map(Path::of);
        try {
            VendorLibrary loader = VendorLibrary.loadFirst(List.of(path.map(Path::toString).orElse(library.getName())));
            return Optional.of(new LoadedLibrary(library.getName(), path, loader.lookup()));
        } catch (VendorLibrary.NotFoundException notFound) {
            return Optional.empty();
        }
    }

    /**
     * @param physicalDeviceType a {@code VkPhysicalDeviceType}
     * @return what it says the device is
     */
    static HardwareKind kindOf(int physicalDeviceType) {
        return switch (physicalDeviceType) {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> HardwareKind.DISCRETE_GPU;
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> HardwareKind.INTEGRATED_GPU;
            case VK_PHYSICAL_DEVICE_TYPE_CPU -> HardwareKind.CPU;
            default -> HardwareKind.OTHER;
        };
    }
}
