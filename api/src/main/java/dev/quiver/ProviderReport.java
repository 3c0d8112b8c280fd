package dev.quiver;

import java.util.List;

/**
 * What discovery found about one provider: whether it is usable and why not, and the devices it serves.
 * Immutable.
 *
 * @param name        the provider name
 * @param className   the provider class
 * @param deviceTypes the device types it serves
 * @param priority    its rank against providers of the same device type
 * @param status      usable or not, and why
 * @param reasons     sentences explaining the status (why unavailable, what it is shadowed by)
 * @param devices     the devices this provider serves as the chosen provider of their type
 * @param setupHint   what to install or set to make the provider usable ({@link
 *                    dev.quiver.spi.DeviceProvider#setupHint()}); empty if it gives none
 */
public record ProviderReport(String name, String className, List<DeviceType> deviceTypes, int priority,
                             Status status, List<String> reasons, List<Device> devices, String setupHint) {

    /** Copies the lists; a null hint becomes empty. */
    public ProviderReport {
        setupHint = setupHint == null ? "" : setupHint;
        deviceTypes = List.copyOf(deviceTypes);
        reasons = List.copyOf(reasons);
        devices = List.copyOf(devices);
    }

    /** A provider's state after discovery. */
    public enum Status {
        /** Probed successfully; its devices are used where it ranks first. */
        USABLE,
        /** Probed and found unusable (no library, no driver, no device, ...). */
        UNAVAILABLE,
        /** Not probed: excluded by {@link BackendSelection}. */
        EXCLUDED,
        /** Its probe broke the contract (threw); treated as unavailable. */
        FAILED
    }
}
