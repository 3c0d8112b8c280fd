package dev.quiver;

/**
 * A device, or the host memory a device copies through, cannot serve an allocation: its memory is exhausted,
 * the request is larger than the device can ever allocate, or a {@linkplain dev.quiver.memory.MemoryPool#setLimit
 * pool limit} refuses it. Freeing memory (closing arrays, {@link dev.quiver.memory.MemoryPool#trim()}) and
 * trying again, or a smaller request, may succeed. Immutable.
 */
public final class DeviceOutOfMemoryException extends DriverException {
    private static final long serialVersionUID = 1L;

    /**
     * A refused allocation.
     *
     * @param message  what was refused, naming the device and the size
     * @param device   the device, as {@code TYPE:ID}
     * @param call     the vendor function that failed, or null
     * @param code     the code it returned (ignored without a call)
     * @param codeName the code's symbolic name, or null
     * @param cause    the backend's exception, or null
     */
    public DeviceOutOfMemoryException(String message, String device, String call, long code, String codeName, Throwable cause) {
        super(message, device, call, code, codeName, cause);
    }
}
