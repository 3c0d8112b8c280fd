package dev.quiver.arrowjava;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.ReadOnlyArrayException;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arrays in memory the host cannot address (on a test double {@code EXT_DEV} device), and read-only arrays,
 * reach Arrow Java only through an explicit copy: refused under {@link DeviceCopy#REFUSE} with the array left
 * untouched, copied to the host (after waiting for its sync event) under {@link DeviceCopy#COPY_TO_HOST}.
 */
class CopiesOnlyWhenAskedTest extends LeakChecks {
    private final UnaddressableDevice testDouble = new UnaddressableDevice();
    private final Devices devices = testDouble.devices();
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);

    private static final Field FIELD = TypeCatalogue.everyType().stream().filter(f -> f.name().equals("struct_of_everything_nested")).findFirst().orElseThrow();

    private DeviceArray onDevice(List<Object> values) {
        try (DeviceArray host = HostVector.of(FIELD, values).toDeviceArray(devices)) {
            return Copies.toDevice(host, device);
        }
    }

    @Test
    void refusesAnArrayOnAnotherDeviceAndLeavesItOpen() {
        List<Object> values = new RandomValues(1).of(FIELD, 20);
        try (DeviceArray array = onDevice(values);
             CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> VectorImport.toFieldVector(array, allocator, dictionaries));
            assertTrue(refused.getMessage().contains("EXT_DEV"), refused.getMessage());
            assertTrue(refused.getMessage().contains("COPY_TO_HOST"), refused.getMessage());
            assertFalse(array.isClosed(), "the refused array still belongs to the caller");
            assertEquals(DeviceType.EXT_DEV, array.deviceType());
        }
        assertEquals(0, testDouble.liveAllocations(), "device memory freed when the array was closed");
    }

    @Test
    void copiesAnArrayOnAnotherDeviceToTheHostWhenAskedAfterItsEvent() {
        List<Object> values = new RandomValues(2).of(FIELD, 20);
        DeviceArray array = onDevice(values);
        long event = array.syncEvent().orElseThrow().pointer().reinterpret(8).get(java.lang.foreign.ValueLayout.ADDRESS, 0).address();
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             FieldVector vector = VectorImport.toFieldVector(array, allocator, dictionaries, DeviceCopy.COPY_TO_HOST)) {
            assertTrue(array.isClosed(), "the device array was consumed");
            assertTrue(testDouble.hostWaits.contains(event), "the copy waited on the array's sync event");
            assertEquals(values, new ArrowJavaValues(dictionaries).values(vector));
        }
        assertEquals(0, testDouble.liveAllocations(), "device memory freed when the array was consumed");
    }

    @Test
    void copiesARecordBatchOnAnotherDeviceIntoAVectorSchemaRoot() {
        List<Object> values = new RandomValues(3).of(FIELD, 9);
        DeviceArray array = onDevice(values);
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             VectorSchemaRoot root = VectorImport.toVectorSchemaRoot(array, allocator, dictionaries, DeviceCopy.COPY_TO_HOST)) {
            assertEquals(9, root.getRowCount());
            ArrowJavaValues read = new ArrowJavaValues(dictionaries);
            for (int row = 0; row < values.size(); row++) {
                if (values.get(row) == null) {
                    continue;
                }
                for (FieldVector column : root.getFieldVectors()) {
                    assertEquals(((java.util.Map<?, ?>) values.get(row)).get(column.getName()), read.get(column, row), column.getName() + "[" + row + "]");
                }
            }
        }
    }

    @Test
    void leavesCpuArraysUncopiedEvenWhenCopiesAreAllowed() {
        List<Object> values = new RandomValues(4).of(FIELD, 12);
        DeviceArray array = HostVector.of(FIELD, values).toDeviceArray(devices);
        BufferTree before = BufferTree.of(Interchange.arrowArray(array));
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             FieldVector vector = VectorImport.toFieldVector(array, allocator, dictionaries, DeviceCopy.COPY_TO_HOST)) {
            assertTrue(before.assertSameMemory(vector, dictionaries) > 0);
        }
    }

    @Test
    void readOnlyArraysAreNeverSharedWithWritableVectors() {
        List<Object> values = new RandomValues(5).of(FIELD, 10);
        try (Arena structs = Arena.ofConfined()) {
            MemorySegment deviceArray = structs.allocate(ArrowDeviceArrayLayout.LAYOUT);
            Interchange.exportDevice(HostVector.of(FIELD, values).toDeviceArray(devices), deviceArray, MemorySegment.NULL);
            DeviceArray readOnly = Interchange.importDevice(deviceArray, FIELD, ImportOptions.on(devices).readOnly(true));
            BufferTree producers = BufferTree.of(Interchange.arrowArray(readOnly));
            try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
                assertThrows(ReadOnlyArrayException.class, () -> VectorImport.toFieldVector(readOnly, allocator, dictionaries));
                assertFalse(readOnly.isClosed(), "the refused array is still the caller's");
                try (FieldVector copy = VectorImport.toFieldVector(readOnly, allocator, dictionaries, DeviceCopy.COPY_TO_HOST)) {
                    assertTrue(readOnly.isClosed());
                    assertEquals(values, new ArrowJavaValues(dictionaries).values(copy));
                    assertThrows(AssertionError.class, () -> producers.assertSameMemory(copy, dictionaries), "the vector holds a copy");
                }
            }
        }
    }
}
