package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.Copies;
import dev.quiver.ImportOptions;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.host.HostVector;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ArrowDeviceArrayStreams as Arrow Java readers: a C producer's batches are released one by one as the
 * reader moves on, and all of them, with the schema and the stream, when it closes; Quiver's own stream
 * of every-type batches arrives zero-copy; batches on another device are refused or copied as asked.
 */
class StreamImportTest extends LeakChecks {
    private static final int BATCHES = 5;
    private static final int ROWS = 17;

    @Test
    void aCProducersBatchesAreReleasedAsTheReaderMovesOn() throws IOException {
        try (BridgeC.Producer producer = BridgeC.Producer.of(BATCHES, ROWS); Arena arena = Arena.ofConfined()) {
            MemorySegment cStream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            BridgeC.invoke(BridgeC.EXPORT_DEVICE_STREAM, producer.handle(), cStream);
            try (ArrowReader reader = StreamImport.importFrom(cStream, allocator, DeviceCopy.REFUSE)) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                assertEquals(List.of("i", "s"), root.getSchema().getFields().stream().map(org.apache.arrow.vector.types.pojo.Field::getName).toList());
                for (int b = 0; b < BATCHES; b++) {
                    assertTrue(reader.loadNextBatch());
                    assertEquals(ROWS, root.getRowCount());
                    assertEquals(RecordBatches.rows(b, ROWS, false), rows(root), "batch " + b);
                    assertEquals(b, producer.batchesFreed(), "earlier batches released once the next one loaded");
                }
                assertFalse(reader.loadNextBatch());
            }
            assertEquals(BATCHES, producer.batchesFreed(), "every batch released");
            assertEquals(3L * BATCHES, producer.nodesReleased());
            assertEquals(1, producer.schemasReleased());
            assertEquals(1, producer.streamReleases());
        }
    }

    @Test
    void quiverBatchesOfEveryKindArriveWithoutCopy() throws IOException {
        Field nested = TypeCatalogue.everyType().stream().filter(f -> f.name().equals("struct_of_everything_nested")).findFirst().orElseThrow();
        Field schema = new Field(nested.name(), nested.type(), false, nested.children(), nested.metadata(), null);
        List<List<Object>> values = new ArrayList<>();
        List<DeviceArray> batches = new ArrayList<>();
        List<BufferTree> trees = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            values.add(new RandomValues(100 + b).of(schema, 11));
            DeviceArray batch = HostVector.of(schema, values.get(b)).toDeviceArray();
            trees.add(BufferTree.of(Interchange.arrowArray(batch)));
            batches.add(batch);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            DeviceArrayStream.of(schema, DeviceType.CPU, batches.iterator()).exportTo(stream);
            try (ArrowReader reader = StreamImport.importFrom(stream, allocator, DeviceCopy.REFUSE)) {
                for (int b = 0; b < 3; b++) {
                    assertTrue(reader.loadNextBatch());
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    ArrowJavaValues read = new ArrowJavaValues(reader);
                    for (int r = 0; r < 11; r++) {
                        Map<?, ?> expected = (Map<?, ?>) values.get(b).get(r);
                        for (FieldVector column : root.getFieldVectors()) {
                            assertEquals(expected.get(column.getName()), read.get(column, r), "batch " + b + " " + column.getName() + "[" + r + "]");
                        }
                    }
                    assertTrue(trees.get(b).assertSameMemory(root.getFieldVectors(), reader) > 0, "batch " + b + " shares its buffers");
                }
                assertFalse(reader.loadNextBatch());
            }
        }
    }

    @Test
    void batchesOnAnotherDeviceAreRefusedOrCopiedAsAsked() throws IOException {
        UnaddressableDevice testDouble = new UnaddressableDevice();
        Devices devices = testDouble.devices();
        Device device = devices.get(DeviceType.EXT_DEV, 0);
        Field schema = Field.struct("batch", false, List.of(TypeCatalogue.leaf("i", new dev.quiver.type.ArrowType.Int(32, true)),
                TypeCatalogue.leaf("s", new dev.quiver.type.ArrowType.Utf8())));
        for (DeviceCopy policy : DeviceCopy.values()) {
            List<DeviceArray> onDevice = new ArrayList<>();
            for (int b = 0; b < 2; b++) {
                try (DeviceArray host = HostVector.of(schema, RecordBatches.rows(b, ROWS, false)).toDeviceArray(devices)) {
                    onDevice.add(Copies.toDevice(host, device));
                }
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
                DeviceArrayStream.of(schema, DeviceType.EXT_DEV, onDevice.iterator()).exportTo(stream);
                try (ArrowReader reader = StreamImport.toArrowReader(DeviceArrayStream.importFrom(stream, ImportOptions.on(devices)), allocator, policy)) {
                    if (policy == DeviceCopy.REFUSE) {
                        IOException refused = assertThrows(IOException.class, reader::loadNextBatch);
                        assertTrue(refused.getMessage().contains("EXT_DEV"), refused.getMessage());
                    } else {
                        for (int b = 0; b < 2; b++) {
                            assertTrue(reader.loadNextBatch());
                            assertEquals(RecordBatches.rows(b, ROWS, false), rows(reader.getVectorSchemaRoot()), "batch " + b);
                        }
                        assertFalse(reader.loadNextBatch());
                    }
                }
            }
            onDevice.forEach(DeviceArray::close);
            assertEquals(0, testDouble.liveAllocations(), policy + ": device memory freed");
        }
    }

    private static List<Object> rows(VectorSchemaRoot root) {
        ArrowJavaValues read = new ArrowJavaValues(null);
        List<Object> out = new ArrayList<>();
        for (int r = 0; r < root.getRowCount(); r++) {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            for (FieldVector column : root.getFieldVectors()) {
                row.put(column.getName(), read.get(column, r));
            }
            out.add(row);
        }
        return out;
    }
}
