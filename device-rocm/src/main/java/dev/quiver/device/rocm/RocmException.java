package dev.quiver.device.rocm;

import dev.quiver.spi.VendorCallException;

/**
 * A HIP runtime call returned an error. The message names the call and the {@code hipError_t} by its C
 * name, for example {@code "hipMalloc failed: hipErrorOutOfMemory (out of memory)"}. Immutable.
 */
public final class RocmException extends VendorCallException {
    private static final long serialVersionUID = 1L;

    RocmException(String call, int error, String errorName, String description) {
        super(call + " failed: " + errorName + (description.isEmpty() || description.equals(errorName) ? "" : " (" + description + ")"),
                call, error, errorName, kindOf(error));
    }

    /** {@return the {@code hipError_t} value} */
    public int error() {
        return code();
    }

    /** {@return the {@code hipError_t} name, for example {@code hipErrorOutOfMemory}} */
    public String errorName() {
        return codeName();
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
