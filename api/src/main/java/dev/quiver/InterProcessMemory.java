package dev.quiver;

import java.util.Objects;

/**
 * How a device's memory reaches another process on the same machine: the driver mechanism its backend
 * offers ({@code CUDA_IPC}, {@code HIP_IPC}, {@code LEVEL_ZERO_IPC}, ...) or {@code NONE}, where the memory
 * is copied through shared host memory instead. Immutable.
 *
 * @param mechanism   the mechanism's name, {@code NONE} where there is none
 * @param description what a user is shown, for example {@code "CUDA IPC (cuIpcGetMemHandle)"}
 * @param handleBytes the size of the driver's opaque handle, or 0 where it is a file descriptor or there is none
 * @param events      whether the driver also hands an event to another process ({@code cuIpcGetEventHandle},
 *                    {@code hipIpcGetEventHandle}), so that an array still in flight travels with its sync event
 *                    instead of being waited for on the owner's host
 */
public record InterProcessMemory(String mechanism, String description, int handleBytes, boolean events) {
    /** The name of the absent mechanism. */
    public static final String NONE = "NONE";

    /**
     * Checks the parts.
     *
     * @throws NullPointerException     if a name is null
     * @throws IllegalArgumentException if {@code handleBytes} is negative
     */
    public InterProcessMemory {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(description, "description");
        if (handleBytes < 0) {
            throw new IllegalArgumentException("handleBytes must not be negative, not " + handleBytes);
        }
    }

    /**
     * A mechanism without events.
     *
     * @param mechanism   see the record
     * @param description see the record
     * @param handleBytes see the record
     */
    public InterProcessMemory(String mechanism, String description, int handleBytes) {
        this(mechanism, description, handleBytes, false);
    }

    /** {@return whether the device has no mechanism, so that its memory is copied through shared host memory} */
    public boolean isCopied() {
        return mechanism.equals(NONE);
    }
}
