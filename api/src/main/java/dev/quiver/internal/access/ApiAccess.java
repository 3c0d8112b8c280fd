package dev.quiver.internal.access;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceProvider;

import java.util.List;
import java.util.function.BiFunction;

/**
 * What the API's public classes keep out of their public signatures but lend to Quiver's own packages (a
 * device's backend, devices over given providers) and what they do for the internal ones (turn a backend's
 * failure into the API's exception). The public classes install it when they are initialised; this package
 * names none of them, so that no package cycle runs through it. Thread-safe.
 */
public final class ApiAccess {
    /**
     * The access {@code dev.quiver.Devices} installs.
     *
     * @param <D> {@code Device}
     * @param <S> {@code BackendSelection}
     * @param <V> {@code Devices}
     */
    public interface Access<D, S, V> {
        /**
         * @param device a device
         * @return its checked backend
         */
        BackendDevice backend(D device);

        /**
         * @param providers the providers
         * @param selection which of them are allowed
         * @return devices over exactly these providers
         */
        V devices(List<? extends DeviceProvider> providers, S selection);
    }

    private static volatile Access<?, ?, ?> access;
    private static volatile BiFunction<DeviceException, String, RuntimeException> errors;

    private ApiAccess() {}

    /**
     * Installs the access and the error translation; called once, by {@code dev.quiver.Devices}.
     *
     * @param installed  the access
     * @param translated turns a backend's failure on a device ({@code TYPE:ID}) into the API's exception
     */
    public static void install(Access<?, ?, ?> installed, BiFunction<DeviceException, String, RuntimeException> translated) {
        access = installed;
        errors = translated;
    }

    /**
     * @param <D> {@code Device}
     * @param <S> {@code BackendSelection}
     * @param <V> {@code Devices}
     * @return the access; {@code dev.quiver.Devices} is initialised by then, since a caller holds a device or
     *         has called it
     */
    @SuppressWarnings("unchecked")
    public static <D, S, V> Access<D, S, V> get() {
        Access<?, ?, ?> result = access;
        if (result == null) {
            throw new IllegalStateException("dev.quiver.Devices is not initialised");
        }
        return (Access<D, S, V>) result;
    }

    /**
     * @param failure what a backend threw
     * @param device  the device, as {@code TYPE:ID}
     * @return the API's exception for it (the failure itself before the API is initialised)
     */
    public static RuntimeException translate(DeviceException failure, String device) {
        BiFunction<DeviceException, String, RuntimeException> translation = errors;
        return translation == null ? failure : translation.apply(failure, device);
    }
}
