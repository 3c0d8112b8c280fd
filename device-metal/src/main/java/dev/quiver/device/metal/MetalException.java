package dev.quiver.device.metal;

import dev.quiver.spi.DeviceException;

/**
 * A Metal operation failed: an object could not be made ({@code nil}) or a command buffer ended in error.
 * The message names the operation and, where Metal gives one, the {@code NSError} description. Immutable.
 */
public final class MetalException extends DeviceException {
    private static final long serialVersionUID = 1L;

    MetalException(String message) {
        super(message);
    }
}
