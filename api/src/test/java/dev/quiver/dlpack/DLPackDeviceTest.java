package dev.quiver.dlpack;

import dev.quiver.Copies;
import dev.quiver.ImportOptions;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Zero-copy export and import across a device that is not host accessible, with a test-double backend
 * serving the CUDA code (host memory behind device pointers the API never dereferences). The test double
 * stands in for no hardware: it proves that Quiver hands device pointers through untouched and reaches the
 * memory only through the SPI.
 */
class DLPackDeviceTest {
    private final TestDoubleProvider cuda = new TestDoubleProvider("cuda-test-double", DeviceTypeCodes.CUDA, 0);
    private final Devices devices = Backends.devices(List.of(cuda), BackendSelection.all());
    private long dlpackExports;
    private long arrowExports;

    @BeforeEach
    void count() {
        dlpackExports = DLPack.liveExports();
        arrowExports = Diagnostics.liveExports();
    }

    @AfterEach
    void nothingLeftExported() {
        assertEquals(dlpackExports, DLPack.liveExports());
        assertEquals(arrowExports, Diagnostics.liveExports());
    }

    private DeviceArray onDevice(HostVector vector) {
        try (DeviceArray host = vector.toDeviceArray(devices)) {
            return Copies.toDevice(host, devices.get(DeviceType.CUDA, 1));
        }
    }

    @Test
    void aDeviceArrayTravelsOutAndBackWithItsDevicePointerUntouched() {
        HostVector vector = HostVector.int32("v", 5, 6, 7, 8, 9).slice(1, 3);
        DeviceArray array = onDevice(vector);
        long devicePointer = DLPackExportTest.dataBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(-1L));
        ExportedTensor tensor = new ExportedTensor(export);
        assertEquals(DeviceTypeCodes.CUDA, tensor.deviceType());
        assertEquals(1, tensor.deviceId());
        assertEquals(devicePointer, tensor.data());
        assertEquals(4 * 1, tensor.byteOffset(), "the Arrow offset travels beside the pointer");
        try (DeviceArray back = DLPack.importVersioned(export.tensor(), ImportOptions.defaults().devices(devices))) {
            assertEquals(DeviceType.CUDA, back.deviceType());
            assertEquals(1, back.deviceId());
            assertEquals(devicePointer, DLPackExportTest.dataBuffer(back).address(), "zero-copy both ways");
            try (DeviceArray host = Copies.toHost(back)) {
                assertEquals(vector.values(), ArrayReader.of(host).values());
            }
        }
    }

    @Test
    void aCConsumerSeesTheDevicePointerAndTheDeviceWithoutReadingIt() {
        DeviceArray array = onDevice(HostVector.float64("v", 1.0, 2.0));
        long devicePointer = DLPackExportTest.dataBuffer(array).address();
        DLPackExport export = DLPack.exportLegacy(array, DLPackExportOptions.defaults().stream(-1L));
        try (Arena arena = Arena.ofConfined()) {
            CPeers.Consumed c = CPeers.consume(CPeers.Struct.LEGACY, export.tensor(), 0, true, arena).ok();
            assertEquals("device=2:1 dtype=2:64:1 ndim=1 shape=[2] strides=[1] byte_offset=0 data=set", c.text());
            assertEquals(devicePointer, c.dataAddress());
        }
    }

    @Test
    void aBooleanCopyIsMadeOnTheDeviceThroughTheSpi() {
        HostVector bools = HostVector.bool("b", true, false, false, true, true);
        DeviceArray array = onDevice(bools);
        long bits = DLPackExportTest.dataBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults().allowCopy(true).stream(-1L));
        ExportedTensor tensor = new ExportedTensor(export);
        assertEquals(DLManagedTensorVersionedLayout.FLAG_IS_COPIED, tensor.flags());
        assertEquals(DeviceTypeCodes.CUDA, tensor.deviceType());
        assertNotEquals(bits, tensor.data());
        try (DeviceArray back = DLPack.importVersioned(export.tensor(), ImportOptions.defaults().devices(devices).allowCopy(true));
             DeviceArray host = Copies.toHost(back)) {
            assertEquals(bools.values(), ArrayReader.of(host).values());
        }
    }

    @Test
    void theValidityBitmapOfADeviceArrayIsHandedOverAsItsDevicePointer() {
        DeviceArray array = onDevice(HostVector.int64("v", 1L, null, 3L));
        long validity = DLPackExportTest.validityBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults()
                .nulls(DLPackExportOptions.Nulls.SEPARATE_VALIDITY).stream(-1L));
        ValidityBitmap bitmap = export.validity().orElseThrow();
        assertEquals(validity, bitmap.pointer().address());
        assertEquals(1, bitmap.nullCount());
        assertTrue(cuda.streamWaits.isEmpty());
        new ExportedTensor(export).delete();
    }
}
