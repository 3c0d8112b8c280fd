package dev.quiver.types;

import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole-array copies of every layout to a device whose memory the host cannot address (a test double
 * backend on host memory, dev.quiver.TestDoubleProvider) and back, sliced and whole.
 */
class DeviceCopyTest {
    private static final Devices DEVICES = Backends.devices(List.of(TestDoubleProvider.of(DeviceTypeCodes.EXT_DEV)), BackendSelection.all());
    private static final Device DEVICE = DEVICES.get(DeviceType.EXT_DEV, 0);

    static List<TypeCatalogue.Sample> samples() {
        return TypeCatalogue.all();
    }

    static LongStream seeds() {
        return LongStream.range(1000, 1100);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void everyLayoutCopiesToADeviceAndBack(TypeCatalogue.Sample sample) {
        HostVector vector = sample.vector();
        assertDeviceRoundTrip(vector);
        if (vector.length() >= 3) {
            assertDeviceRoundTrip(vector.slice(1, vector.length() - 2));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomNestedBatchesCopyThroughTheDevice(long seed) {
        RandomArrays random = new RandomArrays(seed);
        HostVector vector = random.vector(4, 30);
        long start = vector.length() / 3;
        try {
            assertDeviceRoundTrip(vector);
            assertDeviceRoundTrip(vector.slice(start, vector.length() - start));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + ", field " + vector.field() + ": " + e.getMessage(), e);
        }
    }

    @Test
    void aSliceOfAMillionStringsCopiesOnlyItsSlice() {
        List<Object> strings = new ArrayList<>(1_000_000);
        for (int i = 0; i < 1_000_000; i++) {
            strings.add(i % 10 == 0 ? null : "value-" + i);
        }
        HostVector whole = HostVector.of(dev.quiver.type.Field.of("s", new dev.quiver.type.ArrowType.Utf8(), true), strings);
        HostVector slice = whole.slice(500_003, 1000);
        try (DeviceArray host = slice.toDeviceArray(DEVICES)) {
            long before = Diagnostics.bytesCopied();
            try (DeviceArray onDevice = Copies.toDevice(host, DEVICE)) {
                long moved = Diagnostics.bytesCopied() - before;
                long sliceBytes = 1000 * 14 + 1001 * 4 + 1000 / 8 + 1;
                assertTrue(moved <= sliceBytes, "moved " + moved + " bytes for a slice of about " + sliceBytes);
                assertTrue(moved >= 1000 * 12, "moved " + moved + " bytes: the slice's own data at least");
                try (DeviceArray back = Copies.toHost(onDevice)) {
                    Interchange.validateFull(back);
                    assertEquals(slice.values(), ArrayReader.of(back).values());
                    assertTrue(ArrayReader.of(back).offset() < 8, "re-based: only the bit offset within the first validity byte remains");
                }
            }
        }
    }

    private static void assertDeviceRoundTrip(HostVector vector) {
        long exports = Diagnostics.liveExports();
        try (DeviceArray host = vector.toDeviceArray(DEVICES);
             DeviceArray onDevice = Copies.toDevice(host, DEVICE);
             DeviceArray again = Copies.toDevice(onDevice, DEVICE);
             DeviceArray back = Copies.toHost(again)) {
            assertEquals(vector.length(), onDevice.length());
            Interchange.validateFull(back);
            assertEquals(vector.values(), ArrayReader.of(back).values());
        }
        assertEquals(exports, Diagnostics.liveExports());
    }
}
