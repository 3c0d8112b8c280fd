package dev.quiver.baselines;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The C baselines compile with the system compiler, load, and do what the benchmarks time them doing. */
class CBaselinesTest {
    private static final Devices HOST = Devices.cpuOnly();

    @Test
    void theCConsumerChecksEveryNodeOfAnExportedBatchInEachIteration() {
        try (DeviceArray batch = BenchBatches.batch("int32", 3, 50).toDeviceArray(HOST);
             Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportShared(batch, array, schema);
            MemorySegment plain = array.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
            try {
                assertEquals(4 * 5, CBaselines.exportImportRelease(plain, schema, 5), "a struct and its three columns, five times");
            } finally {
                Interchange.importDevice(array, schema, ImportOptions.on(HOST)).close();   // the export's own release, once
            }
        }
    }

    @Test
    void theMemcpyRoundTripLeavesBothBuffersEqual() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(256);
            MemorySegment other = arena.allocate(256);
            for (int i = 0; i < 256; i++) {
                host.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
            }
            assertEquals(3, CBaselines.memcpyRoundTrip(host, other, 256, 2));
            assertEquals(-1, host.mismatch(other));
        }
    }

    @Test
    void aCProducedStreamDrainsInCWithEveryBatch() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            CBaselines.produceStream(stream, 6);
            assertEquals(6, CBaselines.drainStream(stream));
        }
    }

    @Test
    void batchesHoldTheColumnsAndNullsAsked() {
        HostVector batch = BenchBatches.batch("utf8", 4, 15);
        assertEquals(List.of("c0", "c1", "c2", "c3"), batch.field().children().stream().map(Field::name).toList());
        assertEquals(15, batch.length());
        List<?> rows = batch.values();
        for (int r = 0; r < 15; r++) {
            Map<?, ?> row = (Map<?, ?>) rows.get(r);
            assertEquals(r % 7 == 0 ? null : "value-" + r, row.get("c3"), "row " + r);
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> BenchBatches.batch("float16", 1, 1));
        assertEquals("unknown shape float16", unknown.getMessage());
    }
}
