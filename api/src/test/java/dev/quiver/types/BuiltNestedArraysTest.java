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
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A struct, a list and a dictionary-encoded array built with {@code child(...)} and {@code dictionary(...)}
 * from uploaded buffers ({@link BuiltArrays}) read their values in place, through their child and
 * dictionary views, after a C consumer deep-copied their export, and back from a device the host cannot
 * address; every struct and device allocation is released afterwards.
 */
class BuiltNestedArraysTest {
    private final TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(HostProvider.host(), provider), BackendSelection.all());

    @ParameterizedTest
    @EnumSource(BuiltArrays.class)
    void onTheHostTheyReadInPlaceAndThroughC(BuiltArrays kind) {
        long exports = Diagnostics.liveExports();
        try (DeviceArray array = kind.on(devices.cpu())) {
            Interchange.validateFull(array);
            assertEquals(kind.expected(), ArrayReader.of(array).values(), "in place");
            assertEquals(kind.expected(), DeepCopyLibrary.valuesThroughC(array), "deep-copied by C");
            assertViewsRead(array, kind);
        }
        assertEquals(exports, Diagnostics.liveExports(), "the built array, its members and the C consumer's input released");
    }

    @ParameterizedTest
    @EnumSource(BuiltArrays.class)
    void onADeviceTheyCarryAnEventAndCopyBack(BuiltArrays kind) {
        long exports = Diagnostics.liveExports();
        try (DeviceArray array = kind.on(devices.get(DeviceType.EXT_DEV, 0))) {
            assertTrue(array.syncEvent().isPresent(), "an event recorded after the uploads");
            try (DeviceArray back = Copies.toHost(array)) {
                assertEquals(kind.expected(), ArrayReader.of(back).values());
            }
            assertViewsRead(array, kind);
        }
        Device device = devices.get(DeviceType.EXT_DEV, 0);
        assertEquals(0, device.memoryPool().stats().bytesInUse(), "every buffer moved in went back to the pool on release");
        device.memoryPool().trim();
        assertEquals(0, provider.liveAllocations(), "and to the device once the pool is trimmed");
        assertEquals(exports, Diagnostics.liveExports());
    }

    /** The first child, or the dictionary, read through its view as the whole array reads it. */
    private static void assertViewsRead(DeviceArray array, BuiltArrays kind) {
        DeviceArray view = kind == BuiltArrays.DICTIONARY ? array.dictionary().orElseThrow() : array.child(0);
        try (view; DeviceArray host = Copies.toHost(view)) {
            List<Object> read = ArrayReader.of(host).values();
            List<Object> expected = switch (kind) {
                case STRUCT -> Arrays.asList(1L, 2L, null);
                case LIST -> List.of(10L, 11L, 12L, 13L, 14L, 15L);
                case DICTIONARY -> List.of("red", "green", "blue");
            };
            assertEquals(expected, read, kind + " view");
        }
    }
}
