package dev.quiver.bridge;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.ImportOptions;
import dev.quiver.internal.access.ApiAccess;
import dev.quiver.ProducerTrust;
import dev.quiver.type.Field;


/**
 * Reaches the members of {@link DeviceArray} that are not API but that the protocol packages need, without
 * making them public: through the accessor {@code Devices} installs in
 * {@link dev.quiver.internal.access.ApiAccess} (no reflection). Stateless; safe from any thread, with the
 * threading rules of the member reached.
 */
public final class ArrayAccess {
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
        ApiAccess.<DeviceArray>arrays().checkWritable(array);
    }

    /**
     * Validates an array's contents in full before they are first read, unless Quiver wrote them from Java
     * values or they passed full validation already.
     *
     * @param array an open array in host-accessible memory
     * @throws dev.quiver.InvalidArrowException naming the path and rule of the first fault
     */
    public static void verifyForReading(DeviceArray array) {
        ApiAccess.<DeviceArray>arrays().verifyContentsForReading(array);
    }

    /**
     * Marks an array's contents as written by Quiver from checked Java values, so that a reader does not
     * validate them ({@link dev.quiver.host.HostVector} calls it on every array it builds).
     *
     * @param array an array Quiver has just built
     */
    public static void markVerified(DeviceArray array) {
        ApiAccess.<DeviceArray>arrays().markContentsVerified(array);
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
        ApiAccess.<DeviceArray>arrays().checkImported(deviceArray, field, trust == ProducerTrust.UNTRUSTED);
    }

    /**
     * Imports an ArrowDeviceArray that a producer's {@code get_next} wrote straight into a block allocated for
     * it, with the checks of an import, taking the block over instead of moving the struct out of it (for a
     * stream that pulls arrays).
     *
     * @param block   a {@link dev.quiver.internal.abi.NativeHeap} block of 128 bytes holding a live
     *                ArrowDeviceArray whose {@code device_type} the caller checked; owned by this call from
     *                its start (released and freed if a check fails, else owned by the array)
     * @param field   the field it must have
     * @param options where the array finds backends, the producer's trust, whether it refuses writes
     * @return the array, owned by the caller
     * @throws dev.quiver.InvalidArrowException naming the first fault; the struct was released
     */
    public static DeviceArray importFetched(long block, Field field, ImportOptions options) {
        return ApiAccess.<DeviceArray>arrays().importFetched(block, field, options);
    }

    /**
     * @param array an array
     * @return where the array finds backends for its events and copies: the {@link Devices} it was imported or
     *         built with, which its {@link DeviceArray#device() device} belongs to
     * @throws dev.quiver.NoBackendException if no chosen backend serves the array's device
     */
    public static Devices devices(DeviceArray array) {
        return ApiAccess.<Device, BackendSelection, Devices>get().devicesOf(array.device());
    }
}
