package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.NativeAdoption;

/**
 * The API's lookups of a device's capabilities, for callers that need one and refuse a device without it as
 * the API always has: with {@link UnsupportedOperationException} naming the device. Given a
 * {@link CheckedBackendDevice}, they answer its checked capabilities. Stateless; any thread.
 */
public final class Capabilities {
    private Capabilities() {}

    /** {@return whether the device makes events} @param device a device */
    public static boolean hasEvents(BackendDevice device) {
        return device.capability(DeviceEvents.class).isPresent();
    }

    /**
     * @param device a device
     * @return its events
     * @throws UnsupportedOperationException if the device has no events
     */
    public static DeviceEvents events(BackendDevice device) {
        return device.capability(DeviceEvents.class).orElseThrow(() -> missing(device, "events"));
    }

    /**
     * @param device a device
     * @return its waits on events, its own or a producer's
     * @throws UnsupportedOperationException if the device waits on no events
     */
    public static EventWaits waits(BackendDevice device) {
        return device.capability(EventWaits.class).orElseThrow(() -> missing(device, "events"));
    }

    /**
     * @param device a device, as the API serves it (a checked view answers adoption for every device)
     * @return its adoption of native streams
     * @throws UnsupportedOperationException if the device adopts nothing
     */
    public static NativeAdoption adoption(BackendDevice device) {
        return device.capability(NativeAdoption.class).orElseThrow(() -> missing(device, "adoption of native streams"));
    }

    /** {@return the device's inter-process mechanism for memory, or {@link IpcMechanism#NONE}} @param device a device */
    public static IpcMechanism ipcMechanism(BackendDevice device) {
        return device.capability(IpcMemory.class).map(IpcMemory::ipcMechanism).orElse(IpcMechanism.NONE);
    }

    private static UnsupportedOperationException missing(BackendDevice device, String what) {
        return new UnsupportedOperationException(DeviceLabels.of(device) + " has no " + what);
    }
}
