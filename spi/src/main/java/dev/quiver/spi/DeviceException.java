package dev.quiver.spi;

/**
 * A device or vendor API call failed. Backends throw this (or a subclass naming the vendor's error code)
 * for every failure of the vendor API; the message names the call and the error.
 */
public class DeviceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the given message.
     *
     * @param message what failed, naming the vendor call and its error
     */
    public DeviceException(String message) {
        super(message);
    }

    /**
     * An exception with the given message and cause.
     *
     * @param message what failed, naming the vendor call and its error
     * @param cause the underlying failure
     */
    public DeviceException(String message, Throwable cause) {
        super(message, cause);
    }
}
