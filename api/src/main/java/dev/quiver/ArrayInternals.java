package dev.quiver;

import dev.quiver.internal.access.ApiAccess;
import dev.quiver.type.Field;

/**
 * What {@code dev.quiver.bridge.ArrayAccess} may do to a {@link DeviceArray} that is not API: the accessor
 * {@link Devices} installs in {@link ApiAccess} when it is initialised. It sits above {@code DeviceArray},
 * {@link ArrayImports} and {@link ArrayValidation} and nothing refers back to it. Stateless; each method runs on
 * the caller's thread under the threading rules of what it reaches.
 */
final class ArrayInternals implements ApiAccess.Arrays<DeviceArray> {
    private ArrayInternals() {}

    /** {@return the accessor} */
    static ApiAccess.Arrays<DeviceArray> access() {
        return new ArrayInternals();
    }

    @Override
    public void checkWritable(DeviceArray array) {
        array.checkWritable();
    }

    @Override
    public void verifyContentsForReading(DeviceArray array) {
        if (!array.contentsVerified) {
            ArrayValidation.validateFull(array, pointer -> -1);
        }
    }

    @Override
    public void markContentsVerified(DeviceArray array) {
        array.contentsVerified = true;
    }

    @Override
    public void checkImported(long deviceArray, Field field, boolean checking) {
        ArrayImports.checkImported(deviceArray, field, checking);
    }

    @Override
    public DeviceArray importFetched(long block, Field field, Object options) {
        return ArrayImports.importFetched(block, field, (ImportOptions) options);
    }
}
