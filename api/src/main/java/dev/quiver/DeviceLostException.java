package dev.quiver;

/**
 * A device, or its context, can no longer be used: it was removed or reset, or a fault (an illegal address, an
 * uncorrectable memory error) left its context unusable. Work already enqueued on it is lost; arrays on it
 * should be closed. Immutable.
 */
public final class DeviceLostException extends DriverException {
    private static final long serialVersionUID = 1L;

    /**
     * A lost device.
     *
     * @param message  what failed, naming the device
     * @param device   the device, as {@code TYPE:ID}
     * @param call     the vendor function that failed, or null
     * @param code     the code it returned (ignored without a call)
     * @param codeName the code's symbolic name, or null
     * @param cause    the backend's exception, or null
     */
    public DeviceLostException(String message, String device, String call, long code, String codeName, Throwable cause) {
        super(message, device, call, code, codeName, cause);
    }
}
