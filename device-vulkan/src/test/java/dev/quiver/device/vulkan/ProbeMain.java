package dev.quiver.device.vulkan;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;
import org.lwjgl.system.Configuration;

/**
 * Run in a child JVM by {@link ProbeReasonsTest}: probes Quiver's Vulkan provider under that JVM's
 * environment and prints the outcome, then LWJGL's configuration as Quiver left it.
 */
public final class ProbeMain {
    private ProbeMain() {}

    /** @param args ignored */
    public static void main(String[] args) {
        ProbeResult result = new VulkanProvider().probe();
        if (result instanceof ProbeResult.Available available) {
            System.out.println("AVAILABLE");
            for (BackendDevice device : available.devices()) {
                System.out.println("device " + device.name() + " " + device.properties());
            }
        } else if (result instanceof ProbeResult.Unavailable unavailable) {
            System.out.println("UNAVAILABLE");
            unavailable.reasons().forEach(reason -> System.out.println("reason " + reason));
        }
        System.out.println("memoryBackend=" + Configuration.MEMORY_BACKEND.get());
        System.out.println("libname=" + Configuration.VULKAN_LIBRARY_NAME.get());
    }
}
