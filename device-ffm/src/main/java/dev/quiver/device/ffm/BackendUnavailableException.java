package dev.quiver.device.ffm;

import dev.quiver.spi.DeviceException;
import dev.quiver.spi.ProbeResult;

import java.util.Objects;

/**
 * A backend cannot be used on this machine: its vendor library is missing or incomplete, the driver is too
 * old or failed to start, or it finds no device. The message is the probe reason, a sentence a user can act
 * on (for example {@code "CUDA driver not installed (libcuda.so.1 not found)"}); {@link #probeResult()} turns
 * it into the {@link ProbeResult.Unavailable} a provider's probe returns. Where it escapes a probe it is a
 * {@link DeviceException} of kind {@link DeviceException.Kind#FAILURE} with no vendor call. Immutable.
 */
public final class BackendUnavailableException extends DeviceException {
    private static final long serialVersionUID = 1L;

    /**
     * A backend that cannot be used, and why.
     *
     * @param reason why, as a probe reason
     * @throws NullPointerException     if {@code reason} is null
     * @throws IllegalArgumentException if {@code reason} is blank
     */
    public BackendUnavailableException(String reason) {
        super(requireReason(reason));
    }

    private static String requireReason(String reason) {
        if (Objects.requireNonNull(reason, "reason").isBlank()) {
            throw new IllegalArgumentException("an unavailable backend must say why");
        }
        return reason;
    }

    /** {@return this failure as a probe's result: unavailable, with the message as its one reason} */
    public ProbeResult probeResult() {
        return ProbeResult.unavailable(getMessage());
    }
}
