package dev.quiver.device.cuda;

import dev.quiver.spi.VendorCallException;

/**
 * A CUDA driver call returned an error. The message names the call and the {@code CUresult} by its C name
 * and the driver's description, for example
 * {@code "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"}. Immutable.
 */
public final class CudaException extends VendorCallException {
    private static final long serialVersionUID = 1L;

    CudaException(String call, int result, String errorName, String description) {
        super(call + " failed: " + errorName + (description.isEmpty() || description.equals(errorName) ? "" : " (" + description + ")"),
                call, result, errorName, kindOf(result));
    }

    /** {@return the {@code CUresult} value} */
    public int result() {
        return code();
    }

    /** {@return the {@code CUresult} name, for example {@code CUDA_ERROR_OUT_OF_MEMORY}} */
    public String errorName() {
        return codeName();
    }

    /** CUDA_ERROR_OUT_OF_MEMORY; a device that is unavailable, has an uncorrectable ECC error, or whose context a
     *  fault made unusable (illegal address, launch failure, hardware stack error, illegal instruction). */
    private static Kind kindOf(int result) {
        return switch (result) {
            case 2 -> Kind.OUT_OF_MEMORY;
            case 46, 214, 700, 714, 715, 719 -> Kind.DEVICE_LOST;
            default -> Kind.FAILURE;
        };
    }
}
