package dev.quiver.spi;

import java.util.List;
import java.util.Objects;

/**
 * What {@link DeviceProvider#probe()} found: either a usable backend with its devices, or the reasons it
 * cannot be used. Immutable; safe to share between threads.
 */
public sealed interface ProbeResult {

    /**
     * The backend works and serves these devices.
     *
     * @param devices the devices found, in the backend's order; may be empty only if the backend has
     *                nothing to enumerate, in which case prefer {@link Unavailable}
     */
    record Available(List<BackendDevice> devices) implements ProbeResult {
        /** Copies the list. */
        public Available {
            devices = List.copyOf(devices);
        }
    }

    /**
     * The backend cannot be used.
     *
     * @param reasons why, most decisive first, each a sentence a user can act on (for example
     *                "CUDA driver not installed: libcuda.so.1 not found")
     */
    record Unavailable(List<String> reasons) implements ProbeResult {
        /** Copies the list and requires at least one reason. */
        public Unavailable {
            reasons = List.copyOf(reasons);
            if (reasons.isEmpty()) {
                throw new IllegalArgumentException("an unavailable backend must say why");
            }
        }
    }

    /**
     * {@return a usable result}
     * @param devices the devices found
     */
    static ProbeResult available(List<BackendDevice> devices) {
        return new Available(Objects.requireNonNull(devices));
    }

    /**
     * {@return an unusable result}
     * @param reason why the backend cannot be used
     */
    static ProbeResult unavailable(String reason) {
        return new Unavailable(List.of(reason));
    }
}
