package dev.quiver.device.oneapi;

import dev.quiver.spi.VendorCallException;

/**
 * A Level Zero call returned an error. The message names the call and the {@code ze_result_t} by its C
 * name, for example {@code "zeMemAllocDevice failed: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"}. Immutable.
 */
public final class OneApiException extends VendorCallException {
    private static final long serialVersionUID = 1L;

    OneApiException(String call, int result) {
        super(call + " failed: " + ZeResult.name(result), call, result, ZeResult.name(result), kindOf(result));
    }

    /** {@return the {@code ze_result_t} value} */
    public int result() {
        return code();
    }

    /** {@return the {@code ze_result_t} name, for example {@code ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY}} */
    public String resultName() {
        return codeName();
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
