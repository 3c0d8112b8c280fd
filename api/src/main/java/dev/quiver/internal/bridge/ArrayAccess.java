package dev.quiver.internal.bridge;

import dev.quiver.DeviceArray;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Reaches the members of {@link DeviceArray} that are not API but that the protocol packages need, without
 * making them public and without {@code dev.quiver} depending on this package. Stateless; safe from any
 * thread, with the threading rules of the member reached.
 */
public final class ArrayAccess {
    private static final MethodHandle CHECK_WRITABLE = checkWritableHandle();

    private ArrayAccess() {}

    /**
     * Refuses writes to a read-only array: called by every path that writes to an array's buffers or hands
     * them to someone who may write.
     *
     * @param array an array
     * @throws dev.quiver.ReadOnlyArrayException if it is read-only
     * @throws IllegalStateException             if it is closed or exported
     */
    public static void checkWritable(DeviceArray array) {
        try {
            CHECK_WRITABLE.invokeExact(array);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("DeviceArray.checkWritable threw a checked exception", e);
        }
    }

    private static MethodHandle checkWritableHandle() {
        try {
            return MethodHandles.privateLookupIn(DeviceArray.class, MethodHandles.lookup())
                    .findVirtual(DeviceArray.class, "checkWritable", MethodType.methodType(void.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
