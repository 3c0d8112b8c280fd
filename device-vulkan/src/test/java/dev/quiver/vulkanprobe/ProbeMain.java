package dev.quiver.vulkanprobe;

import dev.quiver.device.vulkan.VulkanProvider;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;
import org.lwjgl.system.Configuration;

/**
 * Run in a child JVM by {@code ProbeReasonsTest}: probes Quiver's Vulkan provider under that JVM's
 * environment and prints the outcome (with {@code open}, after opening the first device, which loads LWJGL),
 * then LWJGL's configuration as Quiver left it. It sits outside the
 * backend's package so that it can also run beside the backend's named module on the module path.
 */
public final class ProbeMain {
    private ProbeMain() {}

    /** @param args {@code open} to open the first device (which loads LWJGL) after listing them */
    public static void main(String[] args) {
        ProbeResult result = new VulkanProvider().probe();
        if (result instanceof ProbeResult.Available available) {
            System.out.println("AVAILABLE");
            for (BackendDevice device : available.devices()) {
                System.out.println("device " + device.name() + " " + device.properties());
            }
            if (args.length > 0 && args[0].equals("open")) {
                BackendDevice first = available.devices().get(0);
                first.free(first.allocate(64, 8));
                System.out.println("opened " + first.name());
            }
        } else if (result instanceof ProbeResult.Unavailable unavailable) {
            System.out.println("UNAVAILABLE");
            unavailable.reasons().forEach(reason -> System.out.println("reason " + reason));
        }
        System.out.println("memoryBackend=" + Configuration.MEMORY_BACKEND.get());
        System.out.println("libname=" + Configuration.VULKAN_LIBRARY_NAME.get());
    }
}
