package dev.quiver.internal.bridge;

import dev.quiver.DeviceArray;
import dev.quiver.ProducerTrust;
import dev.quiver.type.Field;

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
    private static final MethodHandle CHECK_IMPORTED = checkImportedHandle();

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

    /**
     * Makes the checks an import makes of an ArrowDeviceArray, without importing it (for a stream that
     * relays arrays from a producer to a consumer).
     *
     * @param deviceArray the address of an ArrowDeviceArray the caller owns
     * @param field       the field it must have
     * @param trust       whether host pointers and ranges are checked against the process's mappings
     * @throws dev.quiver.InvalidArrowException naming the first fault; the caller releases the struct
     */
    public static void checkImported(long deviceArray, Field field, ProducerTrust trust) {
        try {
            CHECK_IMPORTED.invokeExact(deviceArray, field, trust == ProducerTrust.UNTRUSTED);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("a DeviceArray member threw a checked exception", e);
        }
    }

    private static MethodHandle checkImportedHandle() {
        try {
            return MethodHandles.privateLookupIn(DeviceArray.class, MethodHandles.lookup())
                    .findStatic(DeviceArray.class, "checkImported", MethodType.methodType(void.class, long.class, Field.class, boolean.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
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
