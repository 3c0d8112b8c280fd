package dev.quiver.device.vulkan;

import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;

/**
 * Run in a fresh JVM by {@link ListingOpensNoDeviceTest}: lists the Vulkan devices through the provider as
 * {@code quiver devices} does and prints each one's inter-process mechanism, one line per device.
 */
final class ListingMain {
    private ListingMain() {}

    /**
     * Lists the devices and prints their mechanisms.
     *
     * @param arguments none
     */
    public static void main(String[] arguments) {
        ProbeResult result = new VulkanProvider().probe();
        if (!(result instanceof ProbeResult.Available available)) {
            throw new IllegalStateException("no Vulkan device listed: " + result);
        }
        for (BackendDevice device : available.devices()) {
            System.out.println(device.getClass().getSimpleName() + " " + device + " " + device.capability(IpcMemory.class).orElseThrow().ipcMechanism());
        }
    }
}
