package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.util.TransferPair;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who owns what, and from which thread it may be released: a DeviceArray outlives the vector it came from
 * and may be closed on another thread; an imported vector releases Quiver's export from whichever thread
 * closes it, also after its buffers were transferred; a C consumer releases an exported batch on a thread of
 * its own; and the exports of one vector may be read and closed by many threads at once.
 */
class OwnershipAndThreadsTest extends LeakChecks {
    private static final Field FIELD = TypeCatalogue.everyType().stream().filter(f -> f.name().equals("list_of_struct")).findFirst().orElseThrow();

    @Test
    void aDeviceArrayOutlivesItsVectorAndClosesOnAnotherThread() throws Exception {
        List<Object> values = new RandomValues(21).of(FIELD, 40);
        DeviceArray array;
        try (DictionaryProvider.MapDictionaryProvider none = new DictionaryProvider.MapDictionaryProvider();
             FieldVector vector = new VectorFiller(allocator, none).create(FIELD, values)) {
            array = VectorExport.toDeviceArray(vector, allocator);
        }
        assertNotEquals(0, allocator.getAllocatedMemory(), "the buffers live on with the DeviceArray");
        assertEquals(values, ArrayReader.of(array).values());
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            other.submit(array::close).get();
        } finally {
            other.shutdown();
        }
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow Java's release ran on the other thread");
    }

    @Test
    void anImportedVectorReleasesTheArrayFromTheThreadThatClosesIt() throws Exception {
        long exportsBefore = Diagnostics.liveExports();
        List<Object> values = new RandomValues(22).of(FIELD, 40);
        FieldVector vector = VectorImport.toFieldVector(HostVector.of(FIELD, values).toDeviceArray(), allocator, null);
        assertTrue(Diagnostics.liveExports() > exportsBefore, "Quiver's export is alive inside the vector");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertEquals(values, other.submit(() -> new ArrowJavaValues(null).values(vector)).get());
            other.submit(vector::close).get();
        } finally {
            other.shutdown();
        }
        assertEquals(exportsBefore, Diagnostics.liveExports(), "released by the close on the other thread");
    }

    @Test
    void transferredBuffersKeepTheImportAliveUntilTheLastVectorCloses() {
        long exportsBefore = Diagnostics.liveExports();
        List<Object> values = new RandomValues(23).of(FIELD, 30);
        try (CDataDictionaryProvider none = new CDataDictionaryProvider()) {
            FieldVector imported = VectorImport.toFieldVector(HostVector.of(FIELD, values).toDeviceArray(), allocator, none);
            TransferPair transfer = imported.getTransferPair(allocator);
            transfer.transfer();
            imported.close();
            try (FieldVector kept = (FieldVector) transfer.getTo()) {
                assertTrue(Diagnostics.liveExports() > exportsBefore, "still alive in the transferred vector");
                assertEquals(values, new ArrowJavaValues(none).values(kept));
            }
        }
        assertEquals(exportsBefore, Diagnostics.liveExports());
    }

    @Test
    void aCConsumerReleasesAnExportedBatchOnItsOwnThread() {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(
                org.apache.arrow.vector.types.pojo.Field.nullable("i", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)),
                org.apache.arrow.vector.types.pojo.Field.nullable("s", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))), allocator);
             Arena arena = Arena.ofConfined()) {
            RecordBatches.fill(root, 3, 41);
            MemorySegment deviceArray = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(VectorExport.toDeviceArray(root, null, allocator), deviceArray, schema);
            root.clear();
            BridgeC.Consumed consumed = BridgeC.consumeDeviceArray(deviceArray, schema, true);
            long sum = RecordBatches.sum(4, 41) - RecordBatches.sum(3, 41);
            assertEquals(new BridgeC.Consumed(0, 1, 41, sum, RecordBatches.nulls(1, 41), RecordBatches.bytes(4, 41) - RecordBatches.bytes(3, 41), 0, 0, 0), consumed);
        }
    }

    @Test
    void manyThreadsReadAndCloseExportsOfTheSameVectorAtOnce() throws Exception {
        List<Object> values = new RandomValues(24).of(FIELD, 25);
        try (DictionaryProvider.MapDictionaryProvider none = new DictionaryProvider.MapDictionaryProvider();
             FieldVector vector = new VectorFiller(allocator, none).create(FIELD, values)) {
            long vectorMemory = allocator.getAllocatedMemory();
            List<DeviceArray> exports = new ArrayList<>();
            for (int n = 0; n < 200; n++) {
                exports.add(VectorExport.toDeviceArray(vector, allocator));
            }
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<List<Object>>> reads = new ArrayList<>();
                for (DeviceArray export : exports) {
                    reads.add(pool.submit(() -> {
                        try (export) {
                            return ArrayReader.of(export).values();
                        }
                    }));
                }
                for (Future<List<Object>> read : reads) {
                    assertEquals(values, read.get());
                }
            } finally {
                pool.shutdown();
            }
            assertEquals(vectorMemory, allocator.getAllocatedMemory(), "every export released its references");
        }
    }
}
