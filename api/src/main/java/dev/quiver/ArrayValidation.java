package dev.quiver;

import dev.quiver.internal.validate.ArrayValidator;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.FullValidator;
import dev.quiver.internal.validate.HostBufferRanges;

import java.lang.foreign.MemorySegment;
import java.util.function.ToLongFunction;

/**
 * Full validation of a {@link DeviceArray}'s data (see {@link Interchange#validateFull(DeviceArray, ToLongFunction)}): in place
 * for host-accessible memory, on a host copy otherwise. Stateless; blocks the caller's thread.
 */
final class ArrayValidation {
    private ArrayValidation() {}

    static void validateFull(DeviceArray array, ToLongFunction<MemorySegment> bufferCapacity) {
        array.checkOpen();
        if (array.deviceType.isHostAccessible()) {
            array.syncEvent().ifPresent(SyncEvent::waitOnHost);
            validateHost(array.arrowArray(), array, bufferCapacity);
        } else {
            try (DeviceArray host = Copies.toHost(array)) {
                validateHost(host.arrowArray(), array, pointer -> -1);
            }
        }
        array.contentsVerified = true;
    }

    private static void validateHost(MemorySegment struct, DeviceArray array, ToLongFunction<MemorySegment> bufferCapacity) {
        Faults checking = Faults.withCapacities(Faults.checking(InvalidArrowException::new), bufferCapacity);
        ArrayValidator.validate(struct, array.field, "", checking);
        HostBufferRanges.check(struct.address(), array.field, checking);
        FullValidator.validate(struct, array.field, bufferCapacity, checking, array.decimalPrecisionChecked, InvalidArrowException::new);
    }
}
