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

        /**
         * @param device a device
         * @return the devices it belongs to
         */
        V devicesOf(D device);
    }

    /**
     * What {@code dev.quiver.DeviceArray} keeps package-private but the protocol packages need, installed with
     * the access.
     *
     * @param <A> {@code DeviceArray}
     */
    public interface Arrays<A> {
        /**
         * @param array an array
         * @throws RuntimeException a {@code ReadOnlyArrayException} if it is read-only; an
         *                          {@link IllegalStateException} if it is closed or exported
         */
        void checkWritable(A array);

        /** @param array an open array in host-accessible memory, validated in full unless it was already */
        void verifyContentsForReading(A array);

        /** @param array an array Quiver has just written from checked Java values */
        void markContentsVerified(A array);

        /**
         * @param deviceArray the address of an ArrowDeviceArray the caller owns
         * @param field       the field it must have
         * @param checking    whether host pointers and ranges are checked against the process's mappings
         */
        void checkImported(long deviceArray, dev.quiver.type.Field field, boolean checking);

        /**
         * Imports an ArrowDeviceArray that a producer wrote straight into a block Quiver allocated, taking the
         * block over without moving the struct again.
         *
         * @param block   a {@code NativeHeap} block of an ArrowDeviceArray's size holding a live struct whose
         *                {@code device_type} was checked; owned by the callee from the call on (released and
         *                freed if the checks fail, else owned by the array)
         * @param field   the field it must have
         * @param options the {@code ImportOptions}, with their trust resolved
         * @return the array, owned by the caller
         */
        A importFetched(long block, dev.quiver.type.Field field, Object options);
    }

    private static volatile Access<?, ?, ?> access;
    private static volatile Arrays<?> arrays;
    private static volatile BiFunction<DeviceException, String, RuntimeException> errors;

    private ApiAccess() {}

    /**
     * Installs the access, the error translation and the array access; called once, by {@code dev.quiver.Devices}.
     *
     * @param installed   the access
     * @param translated  turns a backend's failure on a device ({@code TYPE:ID}) into the API's exception
     * @param arrayAccess what the protocol packages may do to arrays
     */
    public static void install(Access<?, ?, ?> installed, BiFunction<DeviceException, String, RuntimeException> translated,
                               Arrays<?> arrayAccess) {
        access = installed;
        errors = translated;
        arrays = arrayAccess;
    }

    /**
     * @param <A> {@code DeviceArray}
     * @return the array access; installed by then, since a caller holds an array or the devices it came from
     */
    @SuppressWarnings("unchecked")
    public static <A> Arrays<A> arrays() {
        Arrays<?> result = arrays;
        if (result == null) {
            throw new IllegalStateException("dev.quiver.Devices is not initialised");
        }
        return (Arrays<A>) result;
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
