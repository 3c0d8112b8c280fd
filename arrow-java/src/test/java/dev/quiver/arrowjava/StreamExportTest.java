package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arrow Java readers as ArrowDeviceArrayStreams: batches of a real IPC reader (with a dictionary-encoded
 * column) arrive zero-copy and outlive the reader; a C consumer drains an exported stream, releasing every
 * array on a thread of its own; and a C {@code ArrowArrayStream}, imported by arrow-c-data, becomes a device
 * stream.
 */
class StreamExportTest extends LeakChecks {
    private static final int BATCHES = 4;
    private static final int ROWS = 23;

    @Test
    void readerBatchesArriveWithoutCopyAndOutliveTheReader() throws IOException {
        ArrowReader reader = RecordBatches.ipcReader(allocator, BATCHES, ROWS, true);
        List<DeviceArray> kept = new ArrayList<>();
        try (DeviceArrayStream stream = StreamExport.toDeviceArrayStream(reader, allocator)) {
            assertEquals(DeviceType.CPU, stream.deviceType());
            assertEquals(List.of("i", "s", "d"), stream.schema().children().stream().map(dev.quiver.type.Field::name).toList());
            assertTrue(stream.schema().children().get(2).dictionary() != null, "d stays dictionary-encoded");
            while (stream.hasNext()) {
                DeviceArray batch = stream.next();
                kept.add(batch);
                EveryTypeTest.assertCpuStruct(batch);
                assertTrue(BufferTree.of(Interchange.arrowArray(batch)).assertSameMemory(reader.getVectorSchemaRoot().getFieldVectors(), reader) > 0,
                        "batch " + (kept.size() - 1) + " shares the reader's buffers");
            }
        }
        assertEquals(BATCHES, kept.size());
        for (int b = 0; b < BATCHES; b++) {
            try (DeviceArray batch = kept.get(b)) {
                assertEquals(RecordBatches.rows(b, ROWS, true), ArrayReader.of(batch).values(), "batch " + b + " after the reader closed");
            }
        }
    }

    @Test
    void aCConsumerDrainsTheStreamAndReleasesOnItsOwnThreads() {
        ArrowReader reader = RecordBatches.ipcReader(allocator, BATCHES, ROWS, false);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            StreamExport.exportTo(reader, allocator, stream);
            BridgeC.Consumed consumed = BridgeC.consumeDeviceStream(stream, true);
            assertEquals(new BridgeC.Consumed(0, BATCHES, (long) BATCHES * ROWS, RecordBatches.sum(BATCHES, ROWS),
                    RecordBatches.nulls(BATCHES, ROWS), RecordBatches.bytes(BATCHES, ROWS), 0, 0, 0), consumed);
        }
    }

    @Test
    void aCArrayStreamImportedByArrowJavaBecomesADeviceStream() throws IOException {
        try (BridgeC.Producer producer = BridgeC.Producer.of(BATCHES, ROWS); Arena arena = Arena.ofConfined()) {
            MemorySegment cStream = arena.allocate(40, 8);
            BridgeC.invoke(BridgeC.EXPORT_ARRAY_STREAM, producer.handle(), cStream);
            ArrowReader reader = Data.importArrayStream(allocator, ArrowArrayStream.wrap(cStream.address()));
            try (DeviceArrayStream stream = StreamExport.toDeviceArrayStream(reader, allocator)) {
                for (int b = 0; stream.hasNext(); b++) {
                    try (DeviceArray batch = stream.next()) {
                        assertEquals(RecordBatches.rows(b, ROWS, false), ArrayReader.of(batch).values(), "batch " + b);
                    }
                }
            }
            assertEquals(BATCHES, producer.batchesMade());
            assertEquals(BATCHES, producer.batchesFreed(), "every C batch released");
            assertEquals(3L * BATCHES, producer.nodesReleased(), "through every node");
            assertEquals(1, producer.streamReleases(), "the C stream released once");
        }
    }

    @Test
    void arrowJavasOwnArrayStreamRoundTripFeedsACConsumer() {
        ArrowReader reader = RecordBatches.ipcReader(allocator, BATCHES, ROWS, false);
        try (Arena arena = Arena.ofConfined(); ArrowArrayStream plain = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, reader, plain);
            ArrowReader throughC = Data.importArrayStream(allocator, plain);
            MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            StreamExport.exportTo(throughC, allocator, stream);
            BridgeC.Consumed consumed = BridgeC.consumeDeviceStream(stream, false);
            assertEquals(0, consumed.violations());
            assertEquals(BATCHES, consumed.batches());
            assertEquals(RecordBatches.sum(BATCHES, ROWS), consumed.sum());
            assertEquals(RecordBatches.bytes(BATCHES, ROWS), consumed.bytes());
        }
    }
}
