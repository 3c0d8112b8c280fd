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
    private static final MethodHandle CHECK_WRITABLE = handle("checkWritable");
    private static final MethodHandle VERIFY_FOR_READING = handle("verifyContentsForReading");
    private static final MethodHandle MARK_VERIFIED = handle("markContentsVerified");

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
        invoke(CHECK_WRITABLE, array);
    }

    /**
     * Validates an array's contents in full before they are first read, unless Quiver wrote them from Java
     * values or they passed full validation already.
     *
     * @param array an open array in host-accessible memory
     * @throws dev.quiver.InvalidArrowException naming the path and rule of the first fault
     */
    public static void verifyForReading(DeviceArray array) {
        invoke(VERIFY_FOR_READING, array);
    }

    /**
     * Marks an array's contents as written by Quiver from checked Java values.
     *
     * @param array an array Quiver has just built
     */
    public static void markVerified(DeviceArray array) {
        invoke(MARK_VERIFIED, array);
    }

    private static void invoke(MethodHandle member, DeviceArray array) {
        try {
            member.invokeExact(array);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("a DeviceArray member threw a checked exception", e);
        }
    }

    private static MethodHandle handle(String name) {
        try {
            return MethodHandles.privateLookupIn(DeviceArray.class, MethodHandles.lookup())
                    .findVirtual(DeviceArray.class, name, MethodType.methodType(void.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
