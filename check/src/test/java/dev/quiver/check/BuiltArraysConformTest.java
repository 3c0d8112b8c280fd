package dev.quiver.check;

import dev.quiver.plugin.Backends;
import dev.quiver.Interchange;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.types.BuiltArrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arrays built with {@code child(...)} and {@code dictionary(...)} from buffers ({@link BuiltArrays}),
 * exported and put through the conformance checker, on the host and on a test double CUDA device with an
 * event, into structs filled with a pattern first (so that a member left unwritten shows). Before the
 * checker takes them, every node of the export has {@code private_data} and {@code release} set and the
 * {@code sync_event} points to the built array's event; the checker finds no
 * violation ({@code reserved} zeroed, release callbacks that release each child and the dictionary once),
 * and its release frees every buffer that moved in and destroys the event, once.
 */
class BuiltArraysConformTest {
    private final TestDoubleProvider cuda = new TestDoubleProvider("cuda-double", DeviceTypeCodes.CUDA, 0);
    private final Devices devices = Backends.devices(List.of(HostProvider.host(), cuda), BackendSelection.all());

    @ParameterizedTest
    @EnumSource(BuiltArrays.class)
    void builtOnTheHostTheyConform(BuiltArrays kind) {
        ConformanceReport report = exportAndCheck(kind, devices.cpu());
        assertTrue(report.checked().stream().anyMatch(line -> line.startsWith("ArrowDeviceArray: CPU:-1")), report.checked().toString());
    }

    @ParameterizedTest
    @EnumSource(BuiltArrays.class)
    void builtOnADeviceWithAnEventTheyConformAndExportTheEvent(BuiltArrays kind) {
        ConformanceReport report = exportAndCheck(kind, devices.get(DeviceType.CUDA, 1));
        assertTrue(report.checked().stream().anyMatch(line -> line.startsWith("ArrowDeviceArray: CUDA:1")), report.checked().toString());
        Device device = devices.get(DeviceType.CUDA, 1);
        assertEquals(0, device.memoryPool().stats().bytesInUse(), "the checker's release gave every buffer that moved in back to the pool");
        device.memoryPool().trim();
        assertEquals(0, cuda.liveAllocations(), "and the trimmed pool to the device");
    }

    private ConformanceReport exportAndCheck(BuiltArrays kind, Device device) {
        long exports = Diagnostics.liveExports();
        long failures = Diagnostics.callbackFailures();
        int destroyed = cuda.destroyedEvents.size();
        ConformanceReport report;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment exported = ArrowDeviceArrayLayout.allocate(arena).fill(Conformance.POISON);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena).fill(Conformance.POISON);
            long event;
            try (DeviceArray array = kind.on(device)) {
                event = array.syncEvent().map(e -> e.handle().address()).orElse(0L);
                Interchange.exportDevice(array, exported, schema);
            }
            MemorySegment syncEvent = exported.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT);
            if (device.type().eventType().isPresent()) {
                assertFalse(syncEvent.equals(MemorySegment.NULL), "sync_event set");
                assertEquals(event, syncEvent.reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0).address(),
                        "sync_event points to the built array's event");
            } else {
                assertEquals(MemorySegment.NULL, syncEvent);
            }
            assertEquals(kind == BuiltArrays.LIST ? 1 : 0, exported.get(JAVA_LONG, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.OFFSET));
            assertOwnedNodes(exported.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize()), kind.name());
            report = Conformance.checkDeviceArray(exported, schema, devices);
        }
        assertEquals(List.of(), report.violations(), kind + " on " + device);
        assertEquals(exports, Diagnostics.liveExports(), "the checker released every exported struct");
        assertEquals(failures, Diagnostics.callbackFailures(), "no failure inside a release callback");
        assertEquals(device.type().eventType().isPresent() ? destroyed + 1 : destroyed, cuda.destroyedEvents.size(),
                "the event destroyed once, by the release");
        return report;
    }

    /** Every node, children and dictionary included, carries our release callback and its private_data. */
    private static void assertOwnedNodes(MemorySegment array, String path) {
        assertFalse(array.get(ADDRESS, ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL), path + ".release");
        assertFalse(array.get(ADDRESS, ArrowArrayLayout.PRIVATE_DATA).equals(MemorySegment.NULL), path + ".private_data");
        long children = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        MemorySegment pointers = array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(children * ADDRESS.byteSize());
        for (int i = 0; i < children; i++) {
            assertOwnedNodes(pointers.getAtIndex(ADDRESS, i).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), path + ".children[" + i + "]");
        }
        MemorySegment dictionary = array.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (!dictionary.equals(MemorySegment.NULL)) {
            assertOwnedNodes(dictionary.reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), path + ".dictionary");
        }
    }
}
