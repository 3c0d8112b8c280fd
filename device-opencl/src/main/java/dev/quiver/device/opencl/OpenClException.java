package dev.quiver.device.opencl;

import dev.quiver.spi.VendorCallException;

import java.util.Optional;

/**
 * An OpenCL call failed. Carries the call (for example {@code clCreateBuffer}) and the status code with its
 * symbolic name (for example {@code CL_INVALID_BUFFER_SIZE}); the message names both. Immutable.
 */
public final class OpenClException extends VendorCallException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the failed call and its status.
     *
     * @param call   the OpenCL function that failed, optionally with the arguments that matter
     * @param code   the status it returned (or wrote to {@code errcode_ret})
     * @param detail what the backend was doing, or an empty string
     */
    public OpenClException(String call, int code, String detail) {
        super(call + " failed: " + OpenClError.nameOf(code) + " (" + code + ")" + (detail.isEmpty() ? "" : ": " + detail),
                call, code, OpenClError.nameOf(code), kindOf(code));
    }

    /** {@return the named error, empty if no header this backend knows defines the code} */
    public Optional<OpenClError> error() {
        return OpenClError.of(code());
    }

    /** {@return the macro name, for example {@code "CL_INVALID_BUFFER_SIZE"}, or a text naming an unknown code} */
    public String errorName() {
        return codeName();
    }

    /**
     * Throws unless {@code code} is {@code CL_SUCCESS}.
     *
     * @param code the status an OpenCL call returned
     * @param call the call
     * @throws OpenClException naming the call and the error
     */
    static void check(int code, String call) {
        if (code != OpenClError.CL_SUCCESS.code()) {
            throw new OpenClException(call, code, "");
        }
    }

    /**
     * CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY, and CL_INVALID_BUFFER_SIZE,
     * which clCreateBuffer returns for a size beyond the device's largest allocation: memory it cannot serve.
     */
    private static Kind kindOf(int code) {
        return switch (code) {
            case -4, -5, -6, -61 -> Kind.OUT_OF_MEMORY;
            default -> Kind.FAILURE;
        };
    }
}
