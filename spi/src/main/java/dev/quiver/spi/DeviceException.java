package dev.quiver.spi;

import java.util.Optional;

/**
 * A device or vendor API call failed. Backends throw this (or a subclass naming the vendor's error code)
 * for every failure of the vendor API; the message names the call and the error. A backend says what kind
 * of failure it is ({@link Kind}) and, where a vendor call failed, which call and code, so that the API can
 * hand applications an exception of its own ({@code dev.quiver.DriverException} and its subclasses for
 * memory exhaustion and a lost device) without applications naming a backend's classes. Immutable.
 */
public class DeviceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What kind of failure it is, as far as an application can act on it. */
    public enum Kind {
        /** Any other failure of the device or its driver. */
        FAILURE,
        /** Device or host memory is exhausted, or the request is larger than the device can ever serve. */
        OUT_OF_MEMORY,
        /** The device, or its context, can no longer be used (removed, reset, or faulted). */
        DEVICE_LOST
    }

    /** The vendor function that failed, or null. */
    private final String vendorCall;
    /** The code it returned; meaningful only with a call. */
    private final long vendorCode;
    /** The code's symbolic name, or null. */
    private final String vendorCodeName;
    /** What kind of failure it is. */
    private final Kind kind;

    /**
     * A failure of kind {@link Kind#FAILURE} with no vendor call.
     *
     * @param message what failed, naming the vendor call and its error
     */
    public DeviceException(String message) {
        this(message, null, 0, null, Kind.FAILURE);
    }

    /**
     * A failure of kind {@link Kind#FAILURE} with no vendor call.
     *
     * @param message what failed, naming the vendor call and its error
     * @param cause the underlying failure
     */
    public DeviceException(String message, Throwable cause) {
        super(message, cause);
        this.vendorCall = null;
        this.vendorCode = 0;
        this.vendorCodeName = null;
        this.kind = Kind.FAILURE;
    }

    /**
     * A failure of the given kind with no vendor call, for example host memory a backend could not allocate.
     *
     * @param message what failed
     * @param kind    what kind of failure it is
     */
    public DeviceException(String message, Kind kind) {
        this(message, null, 0, null, kind);
    }

    /**
     * A vendor call that failed.
     *
     * @param message  what failed, naming the call and its error
     * @param call     the vendor function, for example {@code clCreateBuffer}, or null
     * @param code     the code it returned
     * @param codeName the code's symbolic name, for example {@code CL_INVALID_BUFFER_SIZE}, or null
     * @param kind     what kind of failure it is
     */
    public DeviceException(String message, String call, long code, String codeName, Kind kind) {
        super(message);
        this.vendorCall = call;
        this.vendorCode = code;
        this.vendorCodeName = codeName;
        this.kind = kind == null ? Kind.FAILURE : kind;
    }

    /** {@return the vendor function that failed, if a vendor call failed} */
    public Optional<String> vendorCall() {
        return Optional.ofNullable(vendorCall);
    }

    /** {@return the code the vendor call returned; 0 when no vendor call failed} */
    public long vendorCode() {
        return vendorCode;
    }

    /** {@return the code's symbolic name, if known} */
    public Optional<String> vendorCodeName() {
        return Optional.ofNullable(vendorCodeName);
    }

    /** {@return what kind of failure it is} */
    public Kind kind() {
        return kind;
    }
}
