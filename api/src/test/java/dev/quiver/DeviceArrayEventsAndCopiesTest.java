package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.NoSuchElementException;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Copies to and from a device that is not host accessible, and the sync events they carry. */
class DeviceArrayEventsAndCopiesTest {
    private final TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(provider), BackendSelection.all());

    private static HostVector batch() {
        return HostVector.struct("t",
                HostVector.int32("a", 1, null, 3, 4, 5),
                HostVector.utf8("s", "x", "yy", null, "", "zzzz"),
                HostVector.list("l", HostVector.int64("e", 1L, 2L, 3L, null, 5L, 6L), 2, null, 0, 3, 1));
    }

    @Test
    void copyToADeviceCarriesAnEventAndComesBackIntact() {
        Device device = devices.get(DeviceType.EXT_DEV, 1);
        long exports = Diagnostics.liveExports();
        try (DeviceArray host = batch().toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device)) {
            assertEquals(DeviceType.EXT_DEV, onDevice.deviceType());
            assertEquals(1, onDevice.deviceId());
            SyncEvent event = onDevice.syncEvent().orElseThrow();
            assertThrows(IllegalArgumentException.class, () -> ArrayReader.of(onDevice), "device memory is not read in place");
            try (DeviceArray back = Copies.toHost(onDevice)) {
                assertEquals(batch().values(), ArrayReader.of(back).values());
            }
            long handle = event.pointer().reinterpret(8).get(ADDRESS, 0).address();
            assertTrue(provider.waitedEvents.contains(handle), "copyToHost honoured the event through the sync_event pointer");
        }
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void slicedArraysCopyAndReadBackTheirSliceOnly() {
        HostVector sliced = batch().slice(1, 3);
        Device device = devices.get(DeviceType.EXT_DEV, 0);
        try (DeviceArray host = sliced.toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device);
             DeviceArray back = Copies.toHost(onDevice)) {
            assertEquals(3, back.length());
            assertEquals(sliced.values(), ArrayReader.of(back).values());
        }
    }

    @Test
    void eventsOfAnImportedArrayAreBorrowedAndDieWithIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            DeviceArray onDevice;
            try (DeviceArray host = batch().toDeviceArray(devices)) {
                onDevice = Copies.toDevice(host, devices.get(DeviceType.EXT_DEV, 0));
            }
            Interchange.exportDevice(onDevice, array, schema);
            DeviceArray imported = Interchange.importDevice(array, schema, ImportOptions.on(devices));
            SyncEvent event = imported.syncEvent().orElseThrow();
            event.waitOnHost();
            assertTrue(event.isComplete());
            imported.close();
            assertThrows(IllegalStateException.class, event::waitOnHost, "the event dies with its array");
        }
    }

    @Test
    void anUnknownDeviceCodeImportsAndFailsOnlyWhereABackendIsNeeded() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(batch().toDeviceArray(devices), array, schema);
            array.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, 18);
            MemorySegment eventCell = arena.allocate(ADDRESS);
            array.set(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT, eventCell);
            try (DeviceArray imported = Interchange.importDevice(array, schema, ImportOptions.on(devices))) {
                assertEquals(18, imported.deviceType().code());
                assertEquals("kDLTrn", imported.deviceType().dlpackName().orElseThrow());
                NoSuchElementException e = assertThrows(NoSuchElementException.class, () -> imported.syncEvent().orElseThrow().waitOnHost());
                assertTrue(e.getMessage().contains("no backend serves device type UNKNOWN(18)"), e.getMessage());
                assertThrows(NoSuchElementException.class, () -> Copies.toHost(imported));
                MemorySegment out = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                Interchange.exportDevice(imported, out, MemorySegment.NULL);
                assertEquals(18, out.get(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE), "the code survives re-export");
                try (DeviceArray again = Interchange.importDevice(out, imported.field(), ImportOptions.on(devices))) {
                    assertEquals(DeviceType.of(18), again.deviceType());
                }
            }
        }
    }

    @Test
    void aCpuArrayWithASyncEventIsRejectedAndReleased() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            long exports = Diagnostics.liveExports();
            Interchange.exportDevice(batch().toDeviceArray(devices), array, schema);
            array.set(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT, arena.allocate(ADDRESS));
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.importDevice(array, schema, ImportOptions.on(devices)));
            assertEquals("sync_event", e.fieldPath());
            assertEquals(exports, Diagnostics.liveExports(), "the rejected array and schema were released");
        }
    }
}
