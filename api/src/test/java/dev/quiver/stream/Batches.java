package dev.quiver.stream;

import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.util.List;

/** The Java side of the test batches of {@code int32_batches.c}: batch i holds 3i, 3i+1, 3i+2. */
final class Batches {
    /** No backends: the tests need none (all memory is host memory). */
    static final Devices NO_BACKENDS = Devices.cpuOnly();
    static final Field SCHEMA = Field.of("v", ArrowType.integer(32, true), true);

    private Batches() {}

    static DeviceArray batch(long index) {
        int first = (int) (3 * index);
        return HostVector.int32("v", first, first + 1, first + 2).toDeviceArray(NO_BACKENDS);
    }

    static List<Object> values(long index) {
        return List.of(3 * index, 3 * index + 1, 3 * index + 2);
    }

    static List<Object> read(DeviceArray array) {
        return ArrayReader.of(array).values();
    }
}
