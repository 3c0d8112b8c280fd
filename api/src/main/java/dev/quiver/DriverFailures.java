package dev.quiver;

import dev.quiver.spi.DeviceException;

/**
 * Turns a backend's {@link DeviceException} into the API's {@link DriverException} of the same kind, so that
 * applications catch Quiver's exceptions, never a backend's class. Installed through
 * {@link dev.quiver.internal.access.ApiAccess} for the checked backends to use. Stateless; thread-safe.
 */
final class DriverFailures {
    private DriverFailures() {}

    /**
     * @param failure what the backend threw
     * @param device  the device, as {@code TYPE:ID}
     * @return the API's exception: the device, the vendor call and code as fields, the backend's exception as
     *         the cause
     */
    static DriverException translate(DeviceException failure, String device) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        if (!message.startsWith(device)) {
            message = device + ": " + message;
        }
        String call = failure.vendorCall().orElse(null);
        String codeName = failure.vendorCodeName().orElse(null);
        return switch (failure.kind()) {
            case OUT_OF_MEMORY -> new DeviceOutOfMemoryException(message, device, call, failure.vendorCode(), codeName, failure);
            case DEVICE_LOST -> new DeviceLostException(message, device, call, failure.vendorCode(), codeName, failure);
            case FAILURE -> new DriverException(message, device, call, failure.vendorCode(), codeName, failure);
        };
    }
}
