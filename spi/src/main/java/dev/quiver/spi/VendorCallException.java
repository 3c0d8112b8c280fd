package dev.quiver.spi;

/**
 * A vendor API call returned an error: the shape every backend's exception shares (CUDA, HIP, Level Zero,
 * OpenCL, Vulkan). It carries the call, the numeric code and the code's symbolic name (also as the
 * {@link DeviceException} fields the API reads), and the message names the call and the error. Subclasses add
 * the vendor's own word for the code ({@code result()}, {@code error()}) and say which codes mean exhausted
 * memory or a lost device. Immutable.
 */
public abstract class VendorCallException extends DeviceException {
    private static final long serialVersionUID = 1L;

    /**
     * A failed vendor call.
     *
     * @param message  what failed, naming the call and the error
     * @param call     the vendor function that failed
     * @param code     the code it returned
     * @param codeName the code's symbolic name
     * @param kind     what kind of failure the code means
     */
    protected VendorCallException(String message, String call, int code, String codeName, Kind kind) {
        super(message, call, code, codeName, kind);
    }

    /** {@return the vendor function that failed, for example {@code cuMemAlloc} or {@code clCreateBuffer}} */
    public String call() {
        return vendorCall().orElseThrow();
    }

    /** {@return the numeric code the call returned} */
    public int code() {
        return (int) vendorCode();
    }

    /** {@return the code's symbolic name, for example {@code CUDA_ERROR_OUT_OF_MEMORY}} */
    public String codeName() {
        return vendorCodeName().orElseThrow();
    }
}
