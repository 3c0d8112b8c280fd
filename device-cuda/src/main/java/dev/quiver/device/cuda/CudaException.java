package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceException;

/**
 * A CUDA driver call returned an error. The message names the call and the {@code CUresult} by its C name
 * and the driver's description, for example
 * {@code "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"}. Immutable.
 */
public final class CudaException extends DeviceException {
    private static final long serialVersionUID = 1L;

    /** The driver entry point that failed. */
    private final String call;
    /** The {@code CUresult} value. */
    private final int result;
    /** The {@code CUresult} name. */
    private final String errorName;

    CudaException(String call, int result, String errorName, String description) {
        super(call + " failed: " + errorName + (description.isEmpty() || description.equals(errorName) ? "" : " (" + description + ")"),
                call, result, errorName, kindOf(result));
        this.call = call;
        this.result = result;
        this.errorName = errorName;
    }

    /** {@return the driver entry point that failed, for example {@code cuMemAlloc}} */
    public String call() {
        return call;
    }

    /** {@return the {@code CUresult} value} */
    public int result() {
        return result;
    }

    /** {@return the {@code CUresult} name, for example {@code CUDA_ERROR_OUT_OF_MEMORY}} */
    public String errorName() {
        return errorName;
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
