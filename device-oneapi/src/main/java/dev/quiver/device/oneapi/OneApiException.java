package dev.quiver.device.oneapi;

import dev.quiver.spi.DeviceException;

/**
 * A Level Zero call returned an error. The message names the call and the {@code ze_result_t} by its C
 * name, for example {@code "zeMemAllocDevice failed: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"}. Immutable.
 */
public final class OneApiException extends DeviceException {
    private static final long serialVersionUID = 1L;

    /** The Level Zero function that failed. */
    private final String call;
    /** The {@code ze_result_t} value. */
    private final int result;

    OneApiException(String call, int result) {
        super(call + " failed: " + ZeResult.name(result), call, result, ZeResult.name(result), kindOf(result));
        this.call = call;
        this.result = result;
    }

    /** {@return the Level Zero function that failed, for example {@code zeMemAllocDevice}} */
    public String call() {
        return call;
    }

    /** {@return the {@code ze_result_t} value} */
    public int result() {
        return result;
    }

    /** {@return the {@code ze_result_t} name, for example {@code ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY}} */
    public String resultName() {
        return ZeResult.name(result);
    }

    /** ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY and _OUT_OF_DEVICE_MEMORY; ZE_RESULT_ERROR_DEVICE_LOST. */
    private static Kind kindOf(int result) {
        return switch (result) {
            case 0x70000002, 0x70000003 -> Kind.OUT_OF_MEMORY;
            case 0x70000001 -> Kind.DEVICE_LOST;
            default -> Kind.FAILURE;
        };
    }
}
