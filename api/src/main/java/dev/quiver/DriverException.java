package dev.quiver;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A device or its driver failed what Quiver asked of it. The message names the device and, where a vendor
 * call failed, the call and its code (for example
 * {@code OPENCL:0: clEnqueueReadBuffer failed: CL_OUT_OF_RESOURCES (-5)}); {@link #call()}, {@link #code()}
 * and {@link #codeName()} hold them as fields. The cause, where there is one, is the backend's own exception.
 * {@link DeviceOutOfMemoryException} and {@link DeviceLostException} are the failures an application can act
 * on; catch this class for the rest. Immutable.
 */
public class DriverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The device, as {@code TYPE:ID}. */
    private final String device;
    /** The vendor function that failed, or null. */
    private final String call;
    /** Its code; meaningful only with a call. */
    private final long code;
    /** The code's symbolic name, or null. */
    private final String codeName;

    /**
     * A failure of a device or its driver.
     *
     * @param message  what failed, naming the device
     * @param device   the device, as {@code TYPE:ID} (for example {@code CUDA:0})
     * @param call     the vendor function that failed, or null
     * @param code     the code it returned (ignored without a call)
     * @param codeName the code's symbolic name, or null
     * @param cause    the backend's exception, or null
     */
    public DriverException(String message, String device, String call, long code, String codeName, Throwable cause) {
        super(message, cause);
        this.device = device;
        this.call = call;
        this.code = code;
        this.codeName = codeName;
    }

    /** {@return the device that failed, as {@code TYPE:ID}} */
    public String device() {
        return device;
    }

    /** {@return the vendor function that failed (for example {@code cuMemAlloc}), if a vendor call failed} */
    public Optional<String> call() {
        return Optional.ofNullable(call);
    }

    /** {@return the code the vendor call returned (for example -61 or 2), if a vendor call failed} */
    public OptionalLong code() {
        return call == null ? OptionalLong.empty() : OptionalLong.of(code);
    }

    /** {@return the code's symbolic name (for example {@code CUDA_ERROR_OUT_OF_MEMORY}), if known} */
    public Optional<String> codeName() {
        return Optional.ofNullable(codeName);
    }
}
