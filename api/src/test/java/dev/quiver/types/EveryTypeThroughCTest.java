package dev.quiver.types;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every type: built in Java, exported, consumed by C (which derives every buffer size from the format and
 * copies the data), produced again by C, imported, validated in full and compared value by value.
 */
class EveryTypeThroughCTest {
    static final Devices NONE = Devices.cpuOnly();

    static List<TypeCatalogue.Sample> samples() {
        return TypeCatalogue.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void roundTripsThroughC(TypeCatalogue.Sample sample) {
        roundTrip(sample.vector());
    }

    @ParameterizedTest(name = "{0} sliced")
    @MethodSource("samples")
    void roundTripsSlicedThroughC(TypeCatalogue.Sample sample) {
        HostVector vector = sample.vector();
        if (vector.length() >= 2) {
            roundTrip(vector.slice(1, vector.length() - 2));
        }
        roundTrip(vector.slice(vector.length(), 0));
    }

    /** Export, C copy, import, full validation, value comparison; asserts C released each struct once. */
    static void roundTrip(HostVector vector) {
        long exports = Diagnostics.liveExports();
        long arraysReleased = DeepCopyLibrary.arraysReleased();
        long schemasReleased = DeepCopyLibrary.schemasReleased();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment exported = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(vector.toDeviceArray(NONE), exported, schema);
            MemorySegment copied = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment copiedSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            DeepCopyLibrary.copy(exported.asSlice(0, ArrowArrayLayout.LAYOUT.byteSize()), schema, copied, copiedSchema);
            assertEquals(exports, Diagnostics.liveExports(), "C released everything Java exported");
            copied.set(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID, -1);
            copied.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, 1);
            copied.set(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT, MemorySegment.NULL);
            try (DeviceArray imported = Interchange.importDevice(copied, copiedSchema, ImportOptions.on(NONE))) {
                assertEquals(vector.field(), imported.field(), "schema survives C exactly");
                Interchange.validateFull(imported, DeepCopyLibrary::capacity);
                assertEquals(vector.values(), ArrayReader.of(imported).values());
                assertEquals(vector.nullCount(), imported.nullCount());
                try (DeviceArray copy = Copies.toHost(imported)) {
                    Interchange.validateFull(copy);
                    assertEquals(vector.values(), ArrayReader.of(copy).values(), "copyToHost of " + vector.field().type().format());
                }
            }
        }
        assertEquals(arraysReleased + 1, DeepCopyLibrary.arraysReleased(), "the C array was released exactly once");
        assertEquals(schemasReleased + 1, DeepCopyLibrary.schemasReleased(), "the C schema was released exactly once");
    }
}
