package dev.quiver.device.rocm;

import dev.quiver.spi.DeviceException;

/**
 * A HIP runtime call returned an error. The message names the call and the {@code hipError_t} by its C
 * name, for example {@code "hipMalloc failed: hipErrorOutOfMemory (out of memory)"}. Immutable.
 */
public final class RocmException extends DeviceException {
    private static final long serialVersionUID = 1L;

    /** The HIP function that failed. */
    private final String call;
    /** The {@code hipError_t} value. */
    private final int error;
    /** The {@code hipError_t} name. */
    private final String errorName;

    RocmException(String call, int error, String errorName, String description) {
        super(call + " failed: " + errorName + (description.isEmpty() || description.equals(errorName) ? "" : " (" + description + ")"),
                call, error, errorName, kindOf(error));
        this.call = call;
        this.error = error;
        this.errorName = errorName;
    }

    /** {@return the HIP function that failed, for example {@code hipMalloc}} */
    public String call() {
        return call;
    }

    /** {@return the {@code hipError_t} value} */
    public int error() {
        return error;
    }

    /** {@return the {@code hipError_t} name, for example {@code hipErrorOutOfMemory}} */
    public String errorName() {
        return errorName;
    }

    /** hipErrorOutOfMemory; an uncorrectable ECC error, an illegal address or a launch failure (the context is
     *  unusable after them). */
    private static Kind kindOf(int error) {
        return switch (error) {
            case 2 -> Kind.OUT_OF_MEMORY;
            case 214, 700, 719 -> Kind.DEVICE_LOST;
            default -> Kind.FAILURE;
        };
    }
}
